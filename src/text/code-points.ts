/**
 * The length of a text as the platform and PostgreSQL count characters: Unicode code points (an emoji is one,
 * a skin-tone modifier or a combining accent one more). Text limits and mention offsets both count this way.
 */
export const codePoints = (text: string): number => [...text].length;
