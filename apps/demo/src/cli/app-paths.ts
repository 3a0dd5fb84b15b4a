import { fileURLToPath } from 'node:url';

/** The demo app's folder (`apps/demo`), from `src/cli` or `dist/cli` alike. */
export const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The shared Claude Code transcripts: `<repo>/fixtures/claude-code/`. */
export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL('../../../../fixtures/claude-code/', import.meta.url));

/** Where the HTML report goes unless `--out` says otherwise: `apps/demo/out/report.html`. */
export const DEFAULT_REPORT_FILE = fileURLToPath(new URL('../../out/report.html', import.meta.url));

/** The recorded session `demo` replays. */
export const DEMO_SESSION_FILE = '258c7280-ae70-4798-800f-63464d01a85d.jsonl';
