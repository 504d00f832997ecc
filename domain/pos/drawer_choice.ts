/**
 * Which open drawer session a sale or refund is recorded in (API §8 "Complete"): that of
 * `registerId` when the request names one; else the only one open at the location, or the
 * one of the transaction's own register among several; several and no choice → 400
 * `register_required`; none → 409 `drawer_not_open`.
 */
import { BadInputError, ConflictError, InvalidReferenceError } from "../errors.ts";

/** What the choice needs of an open session. */
export interface OpenSession {
  registerId: string;
  locationId: string;
}

/**
 * The session to record in, among `sessions`: the open sessions of `registerId` when given,
 * else those at `locationId`, in `opened_at, id` order.
 */
export function pickOpenSession<S extends OpenSession>(
  sessions: readonly S[],
  locationId: string,
  registerId: string | undefined,
  preferredRegisterId: string | null,
): S {
  if (registerId) {
    const [session] = sessions;
    if (!session) {
      throw new ConflictError("drawer_not_open", `Register "${registerId}" has no open drawer`);
    }
    if (session.locationId !== locationId) {
      throw new InvalidReferenceError(
        "registerId",
        `Register "${registerId}" is not at the transaction's location`,
      );
    }
    return session;
  }
  if (sessions.length === 0) {
    throw new ConflictError("drawer_not_open", "No drawer is open at the transaction's location");
  }
  if (sessions.length === 1) return sessions[0]!;
  const preferred = preferredRegisterId
    ? sessions.find((s) => s.registerId === preferredRegisterId)
    : undefined;
  if (preferred) return preferred;
  throw new BadInputError(
    "register_required",
    "Several drawers are open at this location: give registerId",
    [{ path: "registerId", message: "Required when several drawers are open" }],
  );
}
