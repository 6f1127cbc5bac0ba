import { Option, type Command } from 'commander';
import type { UserRecord } from '../identity/store.ts';
import { details, iso, print, table, withDeps, withListOptions } from './runtime.ts';

/** A user as the CLI shows it: never the password's hash. */
const shown = (u: UserRecord) => ({
  id: u.id,
  email: u.email,
  username: u.username,
  name: u.name,
  status: u.status,
  login_type: u.loginType,
  site_admin: u.siteAdmin,
  created_at: iso(u.createdAt),
});

/** `adgraph users`: users, and an operator's password reset. */
export function addUserCommands(program: Command): void {
  const users = program.command('users').description('users');

  users
    .command('create')
    .description('create a user, optionally a member of an organization')
    .requiredOption('--email <email>', 'e-mail address (unique, case-insensitive)')
    .requiredOption('--password <password>', 'password (at most 64 characters, strong enough)')
    .option('--name <name>', 'display name')
    .option('--username <username>', 'username (default: from the e-mail address)')
    .option('--org <org>', 'organization id or name')
    .addOption(new Option('--role <role>', 'role in --org').choices(['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member']))
    .option('--site-admin', 'allow everything everywhere')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        email: string;
        password: string;
        name?: string;
        username?: string;
        org?: string;
        role?: string;
        siteAdmin?: boolean;
        json?: boolean;
      }) =>
        withDeps(async (d) => {
          const { createUser } = await import('../identity/service.ts');
          const { user } = await createUser(d, {
            email: options.email,
            password: options.password,
            name: options.name,
            username: options.username,
            organization: options.org,
            role: options.role,
            siteAdmin: options.siteAdmin,
          });
          print(!!options.json, { id: user.id, email: user.email, username: user.username }, `${user.id}  ${user.email}  ${user.username}`);
        }),
    );

  withListOptions(users.command('list').description('list users in id order (never their password hashes)'))
    .option('--org <org>', 'only the members of this organization (id or name)')
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; org?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listUsers } = await import('../identity/admin.ts');
        const { items, next } = await listUsers(d, options, { organization: options.org });
        const listed = items.map(shown);
        const rows = listed.map((u) => ({
          id: u.id,
          email: u.email,
          username: u.username,
          status: u.status,
          login_type: u.login_type,
          site_admin: u.site_admin ? 'yes' : 'no',
        }));
        print(!!options.json, { users: listed, next }, table(rows, next, 'no users'));
      }),
    );

  users
    .command('show')
    .description('a user, their organizations and roles, and how many live sessions they have')
    .argument('<user>', 'user id or e-mail address')
    .option('--json', 'print JSON')
    .action(async (user: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { userDetails } = await import('../identity/admin.ts');
        const { user: u, memberships, liveSessions } = await userDetails(d, user);
        const out = {
          ...shown(u),
          last_seen_at: iso(u.lastSeenAt),
          memberships: memberships.map((m) => ({ organization_id: m.organizationId, organization_name: m.organizationName, role: m.role })),
          live_sessions: liveSessions,
        };
        print(
          !!options.json,
          out,
          details([
            ['id', u.id],
            ['email', u.email],
            ['username', u.username],
            ['name', u.name || '-'],
            ['status', u.status],
            ['login type', u.loginType],
            ['site admin', u.siteAdmin ? 'yes' : 'no'],
            ['created', iso(u.createdAt)!],
            ['last seen', iso(u.lastSeenAt) ?? 'never'],
            ['organizations', memberships.length ? memberships.map((m) => `${m.organizationName} (${m.role})`).join(', ') : 'none'],
            ['live sessions', String(liveSessions)],
          ]),
        );
      }),
    );

  users
    .command('reset-password')
    .description("set a user's password (asked on the terminal, or --password-stdin) and revoke all their sessions")
    .argument('<user>', 'user id or e-mail address')
    .option('--password-stdin', 'read the new password from standard input (one line) instead of asking')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nThe password is never an argument: the process list and the shell history would show it.')
    .action(async (user: string, options: { passwordStdin?: boolean; json?: boolean }) => {
      const { readNewPassword } = await import('./secret-input.ts');
      const password = await readNewPassword(!!options.passwordStdin);
      await withDeps(async (d) => {
        const { resetPassword } = await import('../identity/admin.ts');
        const { user: u, revokedSessions } = await resetPassword(d, { user, password });
        print(
          !!options.json,
          { id: u.id, email: u.email, password_reset: true, revoked_sessions: revokedSessions },
          `password of ${u.email} reset; ${revokedSessions} session${revokedSessions === 1 ? '' : 's'} revoked`,
        );
      });
    });
}
