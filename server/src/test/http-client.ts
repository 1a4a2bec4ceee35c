/** Calls a running server over real HTTP, as a client outside the process does. */
export async function loginAs(baseUrl: string, user: { id: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`login ${user.id}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { session: string }).session;
}

/** The first conversation of that type in the caller's list. */
export async function firstConversation(baseUrl: string, ssid: string, type: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ssid, type, search: '', page: 0 }),
  });
  const body = (await response.json()) as { rows: { id: number }[] };
  if (!body.rows[0]) throw new Error(`no ${type} conversation`);
  return body.rows[0].id;
}
