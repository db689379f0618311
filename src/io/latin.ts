// Latin letters that Unicode decomposition (NFKD) leaves whole, with the ASCII letters they are
// spelled with: how ICU expands them when sorting, and how a German, Nordic or Polish name is
// written in ASCII.
export const LATIN_SPELLINGS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
}
