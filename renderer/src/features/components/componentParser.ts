// The YAML/JSON parser of component documents is large: it is fetched only when the editor first opens.
import type { ParsedComponent, parseComponentDocument } from './componentDocument';

interface Parser {
  parseComponentDocument: typeof parseComponentDocument;
}
let parserLoad: Promise<Parser> | null = null;

/** The parser, fetched once; a failed fetch is tried again next time. */
export function loadParser(): Promise<Parser> {
  parserLoad ??= import('./componentDocument').catch((e: unknown) => {
    parserLoad = null;
    throw e;
  });
  return parserLoad;
}

export const parseDocument = async (text: string): Promise<ParsedComponent> => (await loadParser()).parseComponentDocument(text);
