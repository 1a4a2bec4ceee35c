/** What a route's `handle` carries: the screen title, for screens that take it from the route table. */
export type ScreenHandle = { title: string };
