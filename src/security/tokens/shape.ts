/** The JWS compact form: three base64url parts. A bearer credential of this shape is a token, never an API key. */
const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

export function looksLikeToken(credential: string): boolean {
  return JWS_SHAPE.test(credential);
}
