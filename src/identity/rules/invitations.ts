/**
 * Invitations to join an organization (issue 25): pure rules, no I/O. An invitation is addressed to an e-mail
 * address and answered by whoever has that address; it can be answered once, while it is pending.
 */
export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * The address as invitations are matched to users: ASCII letters in lower case, nothing else changed. Users'
 * addresses are unique under SQL lower(), which SQLite applies to ASCII letters only, so this never matches
 * two users on either database.
 */
export const emailKey = (email: string): string => email.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/** What an invitation is now: a pending one past its expiry is expired, whether or not the row says so yet. */
export function invitationStatus(invitation: { status: InvitationStatus; expiresAt: Date }, now: Date): InvitationStatus {
  return invitation.status === 'pending' && invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : invitation.status;
}

const CLOSED: Record<Exclude<InvitationStatus, 'pending'>, string> = {
  accepted: 'This invitation has been accepted already.',
  declined: 'This invitation was declined.',
  revoked: 'This invitation was revoked.',
  expired: 'This invitation has expired.',
};

/** Why an invitation can no longer be accepted, declined or revoked; null while it is pending. */
export function whyClosed(status: InvitationStatus): string | null {
  return status === 'pending' ? null : CLOSED[status];
}
