import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { passcodeFrom, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { eventually, firstError, INCORRECT_LOGIN, INCORRECT_PASSCODE, restClient, SIGNED_OUT, type RestClient } from '../helpers/api.ts';

// One-time passcodes end to end through a real SMTP server on loopback (issue 3), on both surfaces.

const NEW_PASSWORD = 'Brand-New-Secret-77-Wombat';
const REQUEST = 'mutation Request($email: String!) { requestOneTimePasscode(email: $email) }';
const CHANGE = 'mutation Change($input: ChangePasswordWithOneTimePasscodeInput!) { changePasswordWithOneTimePasscode(input: $input) }';

let smtp: TestSmtpServer;
let server: TestServer;
let rest: RestClient;
let world: ReturnType<typeof worldBuilder>;
/** Every passcode, password and session token this file handled, for the log check at the end. */
const secrets: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url });
  rest = restClient(server);
  world = worldBuilder(server.deps);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function login(email: string, password: string) {
  const response = await rest.post('/users/login', { email, password });
  if (response.status === 201) secrets.push(response.body.session_token);
  return response;
}

/** Asks for a passcode over REST and reads it out of the mail that arrives. */
async function requestPasscode(email: string): Promise<string> {
  const already = smtp.messages.length;
  const response = await rest.post('/users/otp/request', { email });
  expect(response.status).toBe(204);
  expect(response.body).toBeUndefined();
  const mail = await smtp.waitFor((m) => m.to.includes(email.toLowerCase()) && smtp.messages.indexOf(m) >= already);
  const code = passcodeFrom(mail.text);
  secrets.push(code);
  return code;
}

const change = (email: string, code: string, password: string) => rest.post('/users/otp/change-password', { email, one_time_passcode: code, password });

async function passwordUser() {
  const made = await world.user();
  secrets.push(made.token);
  return made;
}

describe('REST one-time passcodes', () => {
  it('e-mails a passcode that sets a new password, signs the user out everywhere, and works once', async () => {
    const { user, token: worldToken } = await passwordUser();
    const loginToken = (await login(user.email, PASSWORD)).body.session_token as string;
    expect((await rest.get('/users/me', loginToken)).status).toBe(200);

    const code = await requestPasscode(user.email);
    const mail = smtp.messages.find((m) => m.to.includes(user.email.toLowerCase()))!;
    expect(mail.subject).not.toBe('');
    expect(mail.text).toContain(code);
    // Only a hash of the passcode is stored.
    const stored = await server.deps.db('one_time_passcodes').where('user_id', user.id);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);

    secrets.push(NEW_PASSWORD);
    const changed = await change(user.email, code, NEW_PASSWORD);
    expect(changed.status).toBe(204);
    expect(changed.body).toBeUndefined();

    // Every earlier session is revoked.
    for (const token of [worldToken, loginToken]) {
      const me = await rest.get('/users/me', token);
      expect(me.status).toBe(401);
      expect(me.body).toEqual({ message: SIGNED_OUT });
    }
    // The new password works, the old one does not.
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(201);
    const old = await login(user.email, PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ message: INCORRECT_LOGIN });

    // Single use.
    const again = await change(user.email, code, 'Yet-Another-Secret-88-Koala');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: INCORRECT_PASSCODE });
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(201);
  });

  it('answers 204 for an unknown address and for a non-password account, and sends them nothing', async () => {
    const unknown = `nobody-${Date.now()}@example.com`;
    const { user: github } = await passwordUser();
    await server.deps.db('users').where('id', github.id).update({ login_type: 'github' });

    for (const email of [unknown, github.email]) {
      const response = await rest.post('/users/otp/request', { email });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();
    }
    expect(await server.deps.db('one_time_passcodes').where('user_id', github.id)).toHaveLength(0);

    // The decision to send is taken before the answer; a mail requested afterwards arrives, and nothing else did.
    const { user: known } = await passwordUser();
    await requestPasscode(known.email);
    const recipients = smtp.messages.flatMap((m) => m.to);
    expect(recipients).not.toContain(unknown.toLowerCase());
    expect(recipients).not.toContain(github.email.toLowerCase());
  });

  it('refuses a wrong passcode with the same message, and after 5 wrong tries refuses the right one', async () => {
    const { user } = await passwordUser();
    const code = await requestPasscode(user.email);
    for (let i = 0; i < 5; i++) {
      const wrong = await change(user.email, `wrong-${i}-${code.slice(0, 8)}`, NEW_PASSWORD);
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ message: INCORRECT_PASSCODE });
    }
    const right = await change(user.email, code, NEW_PASSWORD);
    expect(right.status).toBe(400);
    expect(right.body).toEqual({ message: INCORRECT_PASSCODE });
    // Nothing changed.
    expect((await login(user.email, PASSWORD)).status).toBe(201);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(401);
  });

  it('lets only one of two simultaneous changes with the same passcode win', async () => {
    const { user } = await passwordUser();
    const code = await requestPasscode(user.email);
    const passwords = ['Parallel-Secret-11-Otter', 'Parallel-Secret-22-Badger'];
    secrets.push(...passwords);
    const responses = await Promise.all(passwords.map((password) => change(user.email, code, password)));
    expect(responses.map((r) => r.status).sort()).toEqual([204, 400]);
    const winner = passwords[responses.findIndex((r) => r.status === 204)]!;
    const loser = passwords.find((p) => p !== winner)!;
    expect(responses.find((r) => r.status === 400)!.body).toEqual({ message: INCORRECT_PASSCODE });
    expect((await login(user.email, winner)).status).toBe(201);
    expect((await login(user.email, loser)).status).toBe(401);
  });

  it('accepts the right passcode after fewer than 5 wrong tries', async () => {
    const { user } = await passwordUser();
    const code = await requestPasscode(user.email);
    for (let i = 0; i < 4; i++) expect((await change(user.email, `wrong-${i}`, NEW_PASSWORD)).status).toBe(400);
    expect((await change(user.email, code, NEW_PASSWORD)).status).toBe(204);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(201);
  });

  it('refuses an expired passcode', async () => {
    const { user } = await passwordUser();
    const code = await requestPasscode(user.email);
    const updated = await server.deps
      .db('one_time_passcodes')
      .where('user_id', user.id)
      .update({ expires_at: new Date(Date.now() - 60_000) });
    expect(updated).toBe(1);
    const response = await change(user.email, code, NEW_PASSWORD);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: INCORRECT_PASSCODE });
    expect((await login(user.email, PASSWORD)).status).toBe(201);
  });

  it('refuses a passcode sent with another address', async () => {
    const { user } = await passwordUser();
    const { user: other } = await passwordUser();
    const code = await requestPasscode(user.email);
    const response = await change(other.email, code, NEW_PASSWORD);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: INCORRECT_PASSCODE });
    expect((await login(other.email, PASSWORD)).status).toBe(201);
    // The code still belongs to its own address.
    expect((await change(user.email, code, NEW_PASSWORD)).status).toBe(204);
  });

  it('refuses an unknown address with the same message', async () => {
    const response = await change(`nobody-${Date.now()}@example.com`, 'some-passcode-value', NEW_PASSWORD);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: INCORRECT_PASSCODE });
  });

  it('refuses a weak new password with "Invalid password." and changes nothing', async () => {
    const { user, token } = await passwordUser();
    const code = await requestPasscode(user.email);
    const weak = await change(user.email, code, 'password');
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ message: 'Invalid password.', validations: [{ field: 'password', detail: expect.any(String) }] });
    expect(weak.body.validations[0].detail).not.toBe('');

    // Nothing half-written: the old password and the old session still work, the passcode is still usable.
    expect((await rest.get('/users/me', token)).status).toBe(200);
    expect((await login(user.email, PASSWORD)).status).toBe(201);
    expect((await change(user.email, code, NEW_PASSWORD)).status).toBe(204);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(201);
  });

  it('refuses the old password as the new one with "Invalid password." on password', async () => {
    const { user, token } = await passwordUser();
    const code = await requestPasscode(user.email);
    const same = await change(user.email, code, PASSWORD);
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ message: 'Invalid password.', validations: [{ field: 'password', detail: expect.any(String) }] });
    expect((await rest.get('/users/me', token)).status).toBe(200);
    expect((await change(user.email, code, NEW_PASSWORD)).status).toBe(204);
  });

  it.each([
    ['no e-mail', {}, 'email'],
    ['a malformed e-mail', { email: 'not-an-address' }, 'email'],
    ['an e-mail over 256 characters', { email: `${'a'.repeat(245)}@example.com` }, 'email'],
    ['an e-mail of the wrong type', { email: ['x@example.com'] }, 'email'],
    ['an unknown field', { email: 'x@example.com', phone: '555' }, 'phone'],
  ])('otp/request answers %s with 400 naming the field', async (_case, body, field) => {
    const response = await rest.post('/users/otp/request', body);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Validation failed.');
    expect(response.body.validations).toEqual([{ field, detail: expect.any(String) }]);
  });

  it.each([
    ['no passcode', { email: 'x@example.com', password: NEW_PASSWORD }, 'one_time_passcode'],
    ['a passcode of the wrong type', { email: 'x@example.com', one_time_passcode: 123456, password: NEW_PASSWORD }, 'one_time_passcode'],
    ['no password', { email: 'x@example.com', one_time_passcode: 'abc' }, 'password'],
    ['a password over 64 characters', { email: 'x@example.com', one_time_passcode: 'abc', password: `${'Aa1!'.repeat(16)}x` }, 'password'],
    ['no e-mail', { one_time_passcode: 'abc', password: NEW_PASSWORD }, 'email'],
    ['an e-mail over 256 characters', { email: `${'a'.repeat(245)}@example.com`, one_time_passcode: 'abc', password: NEW_PASSWORD }, 'email'],
    ['an unknown field', { email: 'x@example.com', one_time_passcode: 'abc', password: NEW_PASSWORD, confirm: NEW_PASSWORD }, 'confirm'],
  ])('otp/change-password answers %s with 400 naming the field', async (_case, body, field) => {
    const response = await rest.post('/users/otp/change-password', body);
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([{ field, detail: expect.any(String) }]);
  });

  it.each(['/users/otp/request', '/users/otp/change-password'])('%s answers bad JSON with 400', async (path) => {
    const response = await rest.post(path, '{"email":');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Request body must be valid JSON.' });
  });
});

describe('GraphQL one-time passcodes', () => {
  it('requestOneTimePasscode and changePasswordWithOneTimePasscode set a new password and sign the user out', async () => {
    const { user, token } = await passwordUser();
    const requested = await server.graphql(REQUEST, { email: user.email });
    expect(requested.body).toEqual({ data: { requestOneTimePasscode: true } });
    const code = passcodeFrom((await smtp.waitForMailTo(user.email)).text);
    secrets.push(code);

    const changed = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: code, password: NEW_PASSWORD } });
    expect(changed.body).toEqual({ data: { changePasswordWithOneTimePasscode: true } });
    expect(firstError((await server.graphql('{ me { id } }', {}, token)).body).extensions?.code).toBe('UNAUTHENTICATED');
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(201);
    expect((await login(user.email, PASSWORD)).status).toBe(401);

    const reused = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: code, password: 'Yet-Another-Secret-88-Koala' } });
    expect(firstError(reused.body)).toMatchObject({ message: INCORRECT_PASSCODE, extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('requestOneTimePasscode answers true for an unknown address and sends nothing', async () => {
    const unknown = `nobody-graphql-${Date.now()}@example.com`;
    expect((await server.graphql(REQUEST, { email: unknown })).body).toEqual({ data: { requestOneTimePasscode: true } });
    const { user } = await passwordUser();
    expect((await server.graphql(REQUEST, { email: user.email })).body).toEqual({ data: { requestOneTimePasscode: true } });
    secrets.push(passcodeFrom((await smtp.waitForMailTo(user.email)).text));
    expect(smtp.messages.flatMap((m) => m.to)).not.toContain(unknown.toLowerCase());
  });

  it('refuses a wrong passcode, a weak password and the old password, changing nothing', async () => {
    const { user, token } = await passwordUser();
    expect((await server.graphql(REQUEST, { email: user.email })).body.data?.requestOneTimePasscode).toBe(true);
    const code = passcodeFrom((await smtp.waitForMailTo(user.email)).text);
    secrets.push(code);

    const wrong = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: 'not-the-code', password: NEW_PASSWORD } });
    expect(firstError(wrong.body)).toMatchObject({ message: INCORRECT_PASSCODE, extensions: { code: 'BAD_USER_INPUT' } });
    expect(firstError(wrong.body).extensions?.field).toBeUndefined();

    const weak = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: code, password: 'password' } });
    expect(firstError(weak.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.password' });

    const same = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: code, password: PASSWORD } });
    expect(firstError(same.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.password' });

    const longEmail = await server.graphql(CHANGE, { input: { email: `${'a'.repeat(245)}@example.com`, oneTimePasscode: code, password: NEW_PASSWORD } });
    expect(firstError(longEmail.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.email' });

    expect((await server.graphql('{ me { id } }', {}, token)).body.data?.me.id).toBe(user.id);
    expect((await login(user.email, PASSWORD)).status).toBe(201);
    // The passcode survived all of that.
    const changed = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: code, password: NEW_PASSWORD } });
    expect(changed.body).toEqual({ data: { changePasswordWithOneTimePasscode: true } });
  });

  it('refuses an expired passcode', async () => {
    const { user } = await passwordUser();
    await server.graphql(REQUEST, { email: user.email });
    const code = passcodeFrom((await smtp.waitForMailTo(user.email)).text);
    secrets.push(code);
    await server.deps
      .db('one_time_passcodes')
      .where('user_id', user.id)
      .update({ expires_at: new Date(Date.now() - 1_000) });
    const expired = await server.graphql(CHANGE, { input: { email: user.email, oneTimePasscode: code, password: NEW_PASSWORD } });
    expect(firstError(expired.body)).toMatchObject({ message: INCORRECT_PASSCODE, extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('requestOneTimePasscode answers a malformed address with BAD_USER_INPUT on email', async () => {
    const { body } = await server.graphql(REQUEST, { email: 'not-an-address' });
    expect(firstError(body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
  });
});

describe('logs', () => {
  it('hold no passcode, no new password and no session token after the flows above', async () => {
    expect(secrets.length).toBeGreaterThan(10);
    // The flows were logged (one line per request), so the check below looked at something.
    const requestLines = server.logs.filter((line) => (line.req as { url?: string } | undefined)?.url?.startsWith('/api/v2/users/otp/'));
    expect(requestLines.length).toBeGreaterThan(0);
    const text = server.logs.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describe('without SMTP_URL', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(() => plain?.close());

  it('puts the passcode mail in the email_outbox table, and the code in it works', async () => {
    const { user } = await worldBuilder(plain.deps).user();
    const client = restClient(plain);
    expect((await client.post('/users/otp/request', { email: user.email })).status).toBe(204);

    const row = await eventually(() => plain.deps.db('email_outbox').where('to_address', user.email).first(), 10_000, 'outbox row');
    expect(row.kind).toBe('one_time_passcode');
    expect(row.subject).not.toBe('');
    const code = passcodeFrom(row.body_text);
    expect((await client.post('/users/otp/change-password', { email: user.email, one_time_passcode: code, password: NEW_PASSWORD })).status).toBe(204);
    expect((await client.post('/users/login', { email: user.email, password: NEW_PASSWORD })).status).toBe(201);
  });

  it('writes nothing to the outbox for an unknown address', async () => {
    const unknown = `nobody-outbox-${Date.now()}@example.com`;
    expect((await restClient(plain).post('/users/otp/request', { email: unknown })).status).toBe(204);
    expect(await plain.deps.db('email_outbox').where('to_address', unknown)).toHaveLength(0);
  });
});
