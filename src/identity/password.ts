export const MAX_PASSWORD_LENGTH = 64;
export const MIN_PASSWORD_ENTROPY_BITS = 52;

/**
 * Password strength as an entropy estimate, the way Coder checks it: the size of the character classes
 * used, raised to the length once runs of repeated characters are discounted.
 */
export function passwordEntropyBits(password: string): number {
  const chars = [...password];
  let base = 0;
  if (chars.some((c) => c >= 'a' && c <= 'z')) base += 26;
  if (chars.some((c) => c >= 'A' && c <= 'Z')) base += 26;
  if (chars.some((c) => c >= '0' && c <= '9')) base += 10;
  if (chars.some((c) => !/[a-zA-Z0-9]/.test(c))) base += 33;
  let length = 0;
  for (let i = 0; i < chars.length; i++) if (i < 2 || chars[i] !== chars[i - 1] || chars[i] !== chars[i - 2]) length++;
  return base === 0 ? 0 : length * Math.log2(base);
}

export interface PasswordVerdict {
  valid: boolean;
  details: string;
}

export function checkPasswordPolicy(password: string): PasswordVerdict {
  if (password.length > MAX_PASSWORD_LENGTH) {
    return { valid: false, details: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` };
  }
  const bits = passwordEntropyBits(password);
  if (bits < MIN_PASSWORD_ENTROPY_BITS) {
    const missing: string[] = [];
    if (!/[a-z]/.test(password)) missing.push('lowercase letters');
    if (!/[A-Z]/.test(password)) missing.push('uppercase letters');
    if (!/[0-9]/.test(password)) missing.push('digits');
    if (!/[^a-zA-Z0-9]/.test(password)) missing.push('special characters');
    const hint = missing.length > 0 ? `add ${missing.join(', ')} or use a longer password` : 'use a longer password';
    return { valid: false, details: `Password is too weak: ${hint}.` };
  }
  return { valid: true, details: '' };
}

