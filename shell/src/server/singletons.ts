import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import * as styledComponents from 'styled-components';
import * as zustand from 'zustand';
import * as reactQuery from '@tanstack/react-query';
import * as shared from '@marketplace/shared';
import type { HostRenderer } from '@marketplace/shared/render-contract';

declare const SINGLETON_VERSIONS: Record<string, string>;

/** This build's copy of every singleton the remotes share (build-preset/shared-deps.mjs), for their server builds. */
export const singletons: HostRenderer['singletons'] = Object.fromEntries(
  Object.entries({
    react: React,
    'react/jsx-runtime': jsxRuntime,
    'react/jsx-dev-runtime': jsxDevRuntime,
    'react-dom': ReactDOM,
    'react-dom/client': ReactDOMClient,
    zustand,
    'styled-components': styledComponents,
    '@tanstack/react-query': reactQuery,
    '@marketplace/shared': shared,
  }).map(([name, lib]) => [name, { version: SINGLETON_VERSIONS[name] ?? '0.0.0', lib: () => lib }]),
);
