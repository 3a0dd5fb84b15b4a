/**
 * The terms a text is indexed and searched by: lower-cased runs of letters and
 * digits, plus each part of an identifier (`parseConfigFile` and `parse_config_file`
 * also yield `parse`, `config`, `file`), so a query finds code by either spelling.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length > 64) continue;
    const lower = word.toLowerCase();
    terms.push(lower);
    const pieces = word
      .split('_')
      .flatMap((piece) => piece.split(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u))
      .filter((piece) => piece.length > 0);
    if (pieces.length > 1) for (const piece of pieces) terms.push(piece.toLowerCase());
  }
  return terms;
}
