import { createContext, type ReactNode } from 'react';

/** A remote's exposed component, as a slot renders it. */
export type SlotComponent = (props: never) => ReactNode;

/** A slot's module as the page starts: loaded, or failed while the page was getting it. */
export type PreloadedSlot = { status: 'ready'; Component: SlotComponent } | { status: 'failed'; error: unknown };

/**
 * The remote modules a page starts with, by `remote/Module`: those the page's server rendered
 * with (on the server; in the browser, loaded before hydrating), so their slots show them at
 * once, as the server's HTML does, instead of starting from loading; and those the browser could
 * not load then, whose slots start with their fallback rather than wait a second time.
 */
export const PreloadedSlots = createContext<ReadonlyMap<string, PreloadedSlot>>(new Map());
