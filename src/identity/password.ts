export const MAX_PASSWORD_LENGTH = 64;
export const MIN_PASSWORD_ENTROPY_BITS = 52;

// The character sets and common sequences of wagslane/go-password-validator v0.3.0, the estimate Coder uses.
const CHARACTER_SETS = ['!@$&*', '_-., ', `"#%'()+/:;<=>?[\\]^{|}~`, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'];
const SEQUENCES = ['0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'abcdefghijklmnopqrstuvwxyz'];

/** A character repeated more than twice in a row counts twice. */
function removeMoreThanTwoRepeatingChars(chars: string[]): string[] {
  const out: string[] = [];
  for (const c of chars) if (!(out.length >= 2 && out[out.length - 1] === c && out[out.length - 2] === c)) out.push(c);
  return out;
}

/** A run of three or more characters that follow `sequence` keeps only its first two (go-password-validator's loop). */
function removeMoreThanTwoFromSequence(chars: string[], sequence: string): string[] {
  const seq = [...sequence];
  const out = [...chars];
  let matches = 0;
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < seq.length; j++) {
      if (i >= out.length) break;
      if (out[i] !== seq[j]) {
        matches = 0;
        continue;
      }
      matches++;
      if (matches > 2) out.splice(i, 1);
      else i++;
    }
  }
  return out;
}

/**
 * Password strength as an entropy estimate, the way Coder checks it (go-password-validator): the size of the
 * character sets used (each other character adds 1), raised to the length once repeated characters and
 * common sequences (digits, the alphabet, keyboard rows, both directions) are discounted.
 */
export function passwordEntropyBits(password: string): number {
  const unique = [...new Set(password)];
  let base = unique.filter((c) => !CHARACTER_SETS.some((set) => set.includes(c))).length;
  for (const set of CHARACTER_SETS) if (unique.some((c) => set.includes(c))) base += set.length;
  let chars = removeMoreThanTwoRepeatingChars([...password]);
  for (const sequence of [...SEQUENCES, ...SEQUENCES.map((seq) => [...seq].reverse().join(''))]) chars = removeMoreThanTwoFromSequence(chars, sequence);
  return base === 0 ? 0 : chars.length * Math.log2(base);
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
