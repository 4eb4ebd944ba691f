/**
 * Characters that show nothing: white space, controls, format characters (zero-width space and
 * joiners, BOM, soft hyphen, bidi marks), the default-ignorable code points (Hangul fillers,
 * variation selectors) and the blank braille pattern. A name made only of these is empty to a
 * reader, however many code points it has.
 */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/**
 * True when nothing would be seen of the text.
 *
 * @example
 * isVisiblyBlank('\u200b\u3164 '); // true
 * isVisiblyBlank('Ada'); // false
 */
export function isVisiblyBlank(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}
