// Who clicked, as the incident's history and its thread name them: the Slack user's ID, which
// Slack vouches for, and their username where it is one a history line can carry as it is.

// Slack's usernames: letters, digits, periods, hyphens and underscores, at most 80. Anything else
// (a display name with spaces, a line break, a mention) is left out rather than cleaned up.
const USERNAME = /^[\p{L}\p{N}._-]{1,80}$/u;

/**
 * `slack:U123 (alice)`: the user's ID and, when it is of a username's shape, their `username`
 * (else their `name`); one line, at most about 130 characters.
 */
export function slackActor(user: {
  id: string;
  username?: string | undefined;
  name?: string | undefined;
}): string {
  const name = [user.username, user.name].find((n) => n !== undefined && USERNAME.test(n));
  return name ? `slack:${user.id} (${name})` : `slack:${user.id}`;
}
