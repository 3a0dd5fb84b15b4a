/** Characters that end a candidate identifier (anything a name or a path does not hold). */
const SEPARATORS = /[\s`'"(),;{}[\]<>=|&!?*+^~#%\\\u2192\u2502]+/;
const EDGE = /^[.:@$-]+|[.:@-]+$/g;
const HAS_LETTER = /[A-Za-z]/;
/** `a.b`, `a/b`, `a::b`, `a->b`: a dotted, slashed or qualified name. */
const QUALIFIED = /[A-Za-z0-9_](?:\.|\/|::|->)[A-Za-z0-9_]/;
/** `snake_case`, `SCREAMING_CASE`, `_private`. */
const SNAKE = /[A-Za-z0-9]_[A-Za-z0-9]|^_[A-Za-z]/;
/** `camelCase`, `PascalCase`, `HTTPServer`. */
const CAMEL = /[a-z0-9][A-Z]|[A-Z]{2,}[a-z]/;
/** `--flag`, `-x`: options of a command line. */
const FLAG = /^--?[A-Za-z][\w-]*$/;
const MIN_CHARS = 3;
const MAX_CHARS = 120;

/**
 * The code-like names in `text`, in order of first appearance, without repeats: dotted,
 * slashed or qualified names (`lib/app.ex`, `Phoenix.LiveView`, `Foo::bar`), snake_case,
 * camelCase / PascalCase and command-line flags (`--force`). A candidate is a run between
 * whitespace, quotes, brackets, operators and the `→` / `│` of numbered listings, with leading/trailing `.` `:` `@` `$` `-`
 * dropped (`:state` → `state` is then not code-like; `--force` keeps its dashes), 3 to 120
 * characters, with a letter in it and not starting with a digit (`0.5rem`, `&1.id` are not names).
 *
 * @example
 * ```ts
 * codeIdentifiers('Edited `lib/app.ex`: added handle_event/3 to MyApp.Live'); // ['lib/app.ex', 'handle_event/3', 'MyApp.Live']
 * ```
 */
export function codeIdentifiers(text: string): string[] {
  const found = new Set<string>();
  for (const raw of text.split(SEPARATORS)) {
    if (raw.length < MIN_CHARS) continue;
    if (FLAG.test(raw)) {
      if (raw.length <= MAX_CHARS) found.add(raw);
      continue;
    }
    const token = raw.replace(EDGE, '');
    if (token.length < MIN_CHARS || token.length > MAX_CHARS || !HAS_LETTER.test(token) || /^\d/.test(token)) continue;
    if (QUALIFIED.test(token) || SNAKE.test(token) || CAMEL.test(token)) found.add(token);
  }
  return [...found];
}
