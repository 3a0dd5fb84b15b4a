import { resolve } from 'node:path';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkPathString } from './check-path-string.js';
import { statPath } from './stat-path.js';

/**
 * Checks `fileStore(dir)`'s folder when the store is made and returns it
 * resolved: a non-empty path string ({@link checkPathString}) that is a folder
 * or does not exist yet (created at the first write, parents included). A path
 * that exists and is not a folder, or that runs through a file, throws
 * {@link InvalidSettingsError} (setting `dir`) at once, instead of a
 * `StoreError` at the first load.
 *
 * @param dir - What `fileStore` received.
 */
export function checkFolderPath(dir: unknown): string {
  checkPathString(dir, 'dir', "fileStore('.sessions')");
  const folder = resolve(dir);
  const status = statPath(folder);
  if (status === 'parent-not-folder') {
    throw new InvalidSettingsError({
      setting: 'dir',
      problem: `${folder} runs through a file, not a folder; pass a folder path (it is created at the first write when missing)`,
    });
  }
  if (typeof status === 'object' && !status.isDirectory()) {
    throw new InvalidSettingsError({
      setting: 'dir',
      problem: `${folder} exists and is not a folder; fileStore keeps two files a session in the folder it is given: pass a folder path (it is created at the first write when missing), or use sqliteStore(file) for one database file`,
    });
  }
  return folder;
}
