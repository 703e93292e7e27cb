import { memo, useCallback, useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import {
  Avatar,
  PAGES,
  popupSurface,
  TextField,
  theme,
  useClickOutside,
  useKeptDraft,
  type SearchResult,
} from '@marketplace/shared';
import { useFollow } from '../useFollow.js';
import { useSearch } from './useSearch.js';

const Wrap = styled.div`
  position: relative;
  flex: 1;
  max-width: 420px;
`;

const popup = `
  position: absolute;
  left: 0;
  right: 0;
  top: calc(100% + 4px);
  margin: 0;
  z-index: 950;
`;

const Results = styled.ul`
  ${popup}
  padding: 4px 0;
  list-style: none;
  ${popupSurface}
  li {
    display: flex;
    gap: 8px;
    align-items: center;
    padding: 6px 12px;
    cursor: pointer;
  }
  li[aria-selected='true'] {
    background: ${theme.colors.surface};
  }
`;

const NoResults = styled.p`
  ${popup}
  padding: 8px 12px;
  ${popupSurface}
  color: ${theme.colors.muted};
`;

/** The results page's address for the typed text (`/search?q=…`). */
export const resultsPageFor = (typed: string) =>
  `${PAGES.search.href()}?${new URLSearchParams({ q: typed.trim() }).toString()}`;

/**
 * SPEC.md section 2 "Search": results under the box; arrows move and wrap back to the typed text.
 * An empty answer says 'No results for “…”', and Enter on the typed text (no result chosen) opens
 * the results page for it.
 *
 * A key renders the box at once; the results it brings (or an answer arriving) render after, in
 * a render the browser may interrupt for the next key, so a long list never holds up typing.
 * The arrows and Enter act on the results as shown.
 */
export function SearchBox() {
  // Kept through a remount (the shell switching the header to another version), not just a render.
  const [typed, setTyped, clearTyped] = useKeptDraft('header:search');
  // -1 is the typed text itself; 0..n-1 a result.
  const [selected, setSelected] = useState(-1);
  const [open, setOpen] = useState(false);
  const search = useSearch(typed);
  const results = useDeferredValue(search.results);
  const noResultsFor = useDeferredValue(search.noResultsFor);
  const follow = useFollow();
  const wrap = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => setSelected(-1), [results]);
  useClickOutside(wrap, open, () => setOpen(false));

  const go = (result: SearchResult) => {
    setOpen(false);
    clearTyped();
    follow(result.urlLink);
  };
  // The same function in every render, so the list is not rendered again for each key.
  const latestGo = useRef(go);
  latestGo.current = go;
  const pick = useCallback((result: SearchResult) => latestGo.current(result), []);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = results.length;
    if (e.key === 'ArrowDown' && n > 0) {
      e.preventDefault();
      setOpen(true);
      setSelected((i) => (i + 1 >= n ? -1 : i + 1));
    } else if (e.key === 'ArrowUp' && n > 0) {
      e.preventDefault();
      setOpen(true);
      setSelected((i) => (i <= -1 ? n - 1 : i - 1));
    } else if (e.key === 'Enter') {
      const result = results[selected];
      if (result) {
        e.preventDefault();
        go(result);
      } else if (typed.trim() !== '') {
        // No result chosen: everything the text finds, on a page of its own (the text stays in the box).
        e.preventDefault();
        setOpen(false);
        follow(resultsPageFor(typed));
      }
    } else if (e.key === 'Escape') {
      setOpen(false);
    }
  };

  const showing = open && results.length > 0;
  const current = results[selected];
  return (
    <Wrap ref={wrap}>
      <TextField
        label="Search"
        hideLabel
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showing}
        aria-controls={listId}
        aria-activedescendant={current ? `${listId}-${selected}` : undefined}
        placeholder="Search for people or events..."
        value={current ? current.name : typed}
        onChange={(e) => {
          setTyped(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {showing && <ResultList id={listId} results={results} selected={selected} onPick={pick} />}
      {open && noResultsFor !== null && <NoResults role="status">No results for “{noResultsFor}”</NoResults>}
    </Wrap>
  );
}

/** The results under the box: rendered again only when they or the selection change. */
const ResultList = memo(function ResultList({
  id,
  results,
  selected,
  onPick,
}: {
  id: string;
  results: SearchResult[];
  selected: number;
  onPick: (result: SearchResult) => void;
}) {
  return (
    <Results id={id} role="listbox" aria-label="Search results">
      {results.map((r, i) => (
        <li
          key={`${r.urlLink}`}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === selected}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(r)}
        >
          <Avatar src={r.iconUrl} name="" size={24} />
          <span>{r.name}</span>
        </li>
      ))}
    </Results>
  );
});
