/** Notes (visibility, author, status when written, search, deletion rights) and photos by phase. */
import { JPEG, PNG } from "../files/_fixtures.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { call, makeTicket, move, repairsSuite, type RepairUsers } from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

function photoForm(content: Uint8Array, phase: string | undefined, name = "photo.png"): FormData {
  const form = new FormData();
  form.append("file", new Blob([content as BlobPart]), name);
  if (phase !== undefined) form.append("phase", phase);
  return form;
}

Deno.test("notes carry author, visibility and the ticket's status when written; paginated, searchable, sortable", async () => {
  const ticket = await makeTicket(t, u);
  const path = `/v1/repair-tickets/${ticket.id}/notes`;
  const first = await call(t, u.tech, "POST", path, { content: "Customer says it buzzes on G" });
  await move(t, u, ticket.id, "intake");
  const second = await call(t, u.tech2, "POST", path, {
    content: "Called: ready Friday, 100% sure",
    visibility: "customer",
  });
  assertEquals([first.visibility, first.ticketStatus, first.authorId], [
    "internal",
    "new",
    u.tech.id,
  ]);
  assertEquals([second.visibility, second.ticketStatus, second.authorId], [
    "customer",
    "intake",
    u.tech2.id,
  ]);
  assert(first.authorName.startsWith("Test "));
  const all = await call(t, u.viewer, "GET", `${path}?sort=createdAt&order=desc`);
  assertEquals(all.data.map((n: { id: string }) => n.id), [second.id, first.id]);
  assertEquals(all.pagination.total, 2);
  const found = await call(t, u.viewer, "GET", `${path}?q=${encodeURIComponent("BUZZES")}`);
  assertEquals(found.data.map((n: { id: string }) => n.id), [first.id]);
  const literal = await call(t, u.viewer, "GET", `${path}?q=${encodeURIComponent("0%")}`);
  assertEquals(literal.data.map((n: { id: string }) => n.id), [second.id]);
  const customer = await call(t, u.viewer, "GET", `${path}?visibility=customer`);
  assertEquals(customer.data.map((n: { id: string }) => n.id), [second.id]);
  const page = await call(t, u.viewer, "GET", `${path}?limit=1&page=2&sort=createdAt`);
  assertEquals(page.data.map((n: { id: string }) => n.id), [second.id]);
  for (
    const bad of [{ content: "" }, { content: "x", visibility: "public" }, { content: "a\u0000" }, {
      content: "x",
      authorId: u.admin.id,
    }]
  ) {
    assertEquals((await api(t.app, "POST", path, { token: u.tech.token, body: bad })).status, 400);
  }
  assertEquals(
    (await api(t.app, "POST", path, { token: u.viewer.token, body: { content: "x" } })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "GET", `${path}?sort=content`, { token: u.viewer.token })).status,
    400,
  );
  const missing = await api(t.app, "GET", `/v1/repair-tickets/${crypto.randomUUID()}/notes`, {
    token: u.viewer.token,
  });
  assertEquals(missing.status, 404);
});

Deno.test("a note is deleted by its author or repairs.admin only; under another ticket's path it is 404 and stays", async () => {
  const ticket = await makeTicket(t, u);
  const other = await makeTicket(t, u);
  const path = `/v1/repair-tickets/${ticket.id}/notes`;
  const mine = await call(t, u.tech, "POST", path, { content: "Mine" });
  const theirs = await call(t, u.tech, "POST", path, { content: "Also mine" });
  const wrongParent = await api(
    t.app,
    "DELETE",
    `/v1/repair-tickets/${other.id}/notes/${mine.id}`,
    {
      token: u.tech.token,
    },
  );
  assertEquals(wrongParent.status, 404);
  const stranger = await api(t.app, "DELETE", `${path}/${mine.id}`, { token: u.tech2.token });
  assertEquals([stranger.status, stranger.body.code], [403, "forbidden"]);
  await call(t, u.tech, "DELETE", `${path}/${mine.id}`);
  await call(t, u.admin, "DELETE", `${path}/${theirs.id}`);
  assertEquals((await call(t, u.viewer, "GET", path)).data, []);
  const gone = await api(t.app, "DELETE", `${path}/${mine.id}`, { token: u.tech.token });
  assertEquals(gone.status, 404);
});

Deno.test("photos are files of entityType repair_ticket with the phase as category, filtered by phase", async () => {
  const ticket = await makeTicket(t, u);
  const path = `/v1/repair-tickets/${ticket.id}/photos`;
  const intake = await call(t, u.tech, "POST", path, photoForm(PNG, "intake"));
  const during = await call(t, u.tech, "POST", path, photoForm(JPEG, "in_progress", "x.jpg"));
  assertEquals([intake.entityType, intake.entityId, intake.category, intake.contentType], [
    "repair_ticket",
    ticket.id,
    "intake",
    "image/png",
  ]);
  assert(intake.url.includes("signature="));
  const all = await call(t, u.viewer, "GET", path);
  assertEquals(all.data.map((f: { id: string }) => f.id).sort(), [intake.id, during.id].sort());
  const onlyIntake = await call(t, u.viewer, "GET", `${path}?phase=intake`);
  assertEquals(onlyIntake.data.map((f: { id: string }) => f.id), [intake.id]);
  assertEquals((await call(t, u.viewer, "GET", `${path}?phase=completed`)).data, []);
  // The files module sees them too.
  const files = await call(
    t,
    await createUserWithPermissions(t, ["files.view"]),
    "GET",
    `/v1/files?entityType=repair_ticket&entityId=${ticket.id}`,
  );
  assertEquals(files.pagination.total, 2);
});

Deno.test("photo uploads: the whitelist, a phase, an existing ticket and the per-entity limit", async () => {
  const ticket = await makeTicket(t, u);
  const path = `/v1/repair-tickets/${ticket.id}/photos`;
  const exe = new TextEncoder().encode("MZ this is not an image");
  const refused = await api(t.app, "POST", path, {
    token: u.tech.token,
    body: photoForm(exe, "intake"),
  });
  assertEquals([refused.status, refused.body.code], [415, "unsupported_media_type"]);
  for (const phase of [undefined, "after", ""]) {
    const res = await api(t.app, "POST", path, {
      token: u.tech.token,
      body: photoForm(PNG, phase),
    });
    assertEquals(res.status, 400, String(phase));
  }
  const json = await api(t.app, "POST", path, { token: u.tech.token, body: { phase: "intake" } });
  assertEquals(json.status, 415);
  const missing = await api(t.app, "POST", `/v1/repair-tickets/${crypto.randomUUID()}/photos`, {
    token: u.tech.token,
    body: photoForm(PNG, "intake"),
  });
  assertEquals(missing.status, 404);
  const viewer = await api(t.app, "POST", path, {
    token: u.viewer.token,
    body: photoForm(PNG, "intake"),
  });
  assertEquals(viewer.status, 403);
  await call(t, u.settings, "PATCH", "/v1/config", { upload: { maxFilesPerEntity: 1 } });
  try {
    await call(t, u.tech, "POST", path, photoForm(PNG, "completed"));
    const full = await api(t.app, "POST", path, {
      token: u.tech.token,
      body: photoForm(PNG, "completed"),
    });
    assertEquals([full.status, full.body.code], [409, "file_limit_reached"]);
  } finally {
    await call(t, u.settings, "PATCH", "/v1/config", { upload: { maxFilesPerEntity: 20 } });
  }
  await call(t, u.settings, "PATCH", "/v1/config", { upload: { maxBytes: 10 } });
  try {
    const big = await api(t.app, "POST", path, {
      token: u.tech.token,
      body: photoForm(PNG, "intake"),
    });
    assertEquals(big.status, 413);
  } finally {
    await call(t, u.settings, "PATCH", "/v1/config", { upload: { maxBytes: 10 * 1024 * 1024 } });
  }
});
