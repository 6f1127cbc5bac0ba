import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../context/index.ts';
import { badInput, DomainError, validateFields } from '../errors/index.ts';
import { checkPasswordPolicy } from './password.ts';
import { dummyPasswordHash, passwordRequired, validateEmail } from './service.ts';
import * as store from './store.ts';

/** Wrong tries a passcode survives; the next one after that never matches. */
export const MAX_PASSCODE_ATTEMPTS = 5;
const INCORRECT_PASSCODE = 'Incorrect email or one-time passcode.';

/**
 * One-time passcodes for a forgotten password (Coder's /users/otp/*). The answer never says whether the
 * address is known: the same work (a bcrypt hash) is done either way, and the e-mail leaves after the reply.
 */
export async function requestOneTimePasscode(deps: AppDeps, input: { email?: unknown }): Promise<void> {
  const email = validateEmail(input.email);
  await deps.rateLimits.consume('otpRequestsByEmail', email);
  const code = randomUUID();
  const codeHash = await deps.passwords.hash(code, deps.config.bcryptCost);
  const user = await store.findUserByEmail(deps.db, email);
  if (!user || user.loginType !== 'password' || user.status === 'suspended') return;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + deps.config.otpTtlSeconds * 1000);
  await store.replacePasscode(deps.db, user.id, codeHash, now, expiresAt);
  const minutes = Math.round(deps.config.otpTtlSeconds / 60);
  deps.mailer
    .send({
      to: user.email,
      kind: 'one_time_passcode',
      subject: 'Your adgraph one-time passcode',
      text: `Hi ${store.displayName(user)},\n\nUse this one-time passcode to set a new password:\n\n${code}\n\nIt expires in ${minutes} minutes and works once. If you did not ask for it, ignore this e-mail.\n`,
    })
    .catch((error: unknown) => deps.log.error({ err: error, userId: user.id }, 'one-time passcode e-mail could not be sent'));
}

export async function changePasswordWithOneTimePasscode(
  deps: AppDeps,
  input: { email?: unknown; one_time_passcode?: unknown; password?: unknown },
): Promise<void> {
  const [email, code, password] = validateFields([
    () => validateEmail(input.email),
    () => {
      const value = input.one_time_passcode;
      if (typeof value !== 'string' || value === '') throw badInput('one_time_passcode', 'A one-time passcode is required.');
      if (value.length > 64) throw badInput('one_time_passcode', 'One-time passcode must be at most 64 characters.');
      return value;
    },
    () => {
      if (typeof input.password !== 'string' || input.password === '') throw passwordRequired();
      // Length is part of the policy here: an over-long new password is an "Invalid password." like a weak one.
      const verdict = checkPasswordPolicy(input.password);
      if (!verdict.valid) throw badInput('password', verdict.details, { title: 'Invalid password.' });
      return input.password;
    },
  ]);

  await deps.rateLimits.consume('otpAttemptsByEmail', email);
  const now = new Date();
  const user = await store.findUserByEmail(deps.db, email);
  const usable = user ? await store.findUsablePasscode(deps.db, user.id, now, MAX_PASSCODE_ATTEMPTS) : null;
  // The try is counted before the comparison; a passcode out of tries is compared as no passcode is (a stand-in hash).
  const passcode = usable && (await store.takePasscodeAttempt(deps.db, usable.id, now, MAX_PASSCODE_ATTEMPTS)) ? usable : null;
  const matches = await deps.passwords.verify(code, passcode?.codeHash ?? (await dummyPasswordHash(deps)));
  if (!user || !passcode || !matches) throw new DomainError('BAD_USER_INPUT', INCORRECT_PASSCODE);
  if (user.hashedPassword && (await deps.passwords.verify(password, user.hashedPassword))) {
    // The right code: only wrong tries use the passcode up.
    await store.givePasscodeAttemptBack(deps.db, passcode.id);
    throw badInput('password', 'New password cannot match old password.', { title: 'Invalid password.' });
  }
  const changed = await store.changePasswordWithPasscode(deps.db, user.id, passcode.id, await deps.passwords.hash(password, deps.config.bcryptCost), now);
  if (!changed) throw new DomainError('BAD_USER_INPUT', INCORRECT_PASSCODE);
}
