/** The sign-up link of an invitation code (DESIGN §4: `/register?invite=CODE`). */
export const inviteLink = (code: string, origin = window.location.origin) => `${origin}/register?invite=${encodeURIComponent(code)}`;
