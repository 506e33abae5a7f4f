/** Where the built-in provider is mounted on the app's origin; the issuer is `${PUBLIC_URL}${MOUNT}`. */
export const MOUNT = '/oidc';

/** Where staff end the provider's session of a device they hand to a patient (decision 0232). */
export const HAND_OVER_PATH = `${MOUNT}/hand-over`;

/** The page of an e-mailed password link (reset, or the first password of an account an admin made), in a brand. */
export const passwordLink = (publicUrl: string, token: string, brand: string): string =>
  `${publicUrl}${MOUNT}/account/reset?token=${token}&brand=${encodeURIComponent(brand)}`;

/** The page of an e-mailed link that confirms a sign-up's e-mail, in a brand. */
export const signUpLink = (publicUrl: string, token: string, brand: string): string =>
  `${publicUrl}${MOUNT}/account/confirm?token=${token}&brand=${encodeURIComponent(brand)}`;

/** The web app's invitation page (spec route /users/invite/{id}); the id is the invitation token. */
export const inviteLink = (publicUrl: string, token: string): string => `${publicUrl}/#/users/invite/${token}`;
