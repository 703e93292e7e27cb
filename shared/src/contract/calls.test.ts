import { describe, expect, it } from 'vitest';
import { API_CALLS } from './calls.js';

const calls = Object.entries(API_CALLS);

describe('the call table', () => {
  it('puts every call under /v2', () => {
    for (const [name, spec] of calls) expect(spec.path, name).toMatch(/^\/v2\//);
  });

  it('sends bodies only with POST and queries only with GET', () => {
    for (const [name, spec] of calls) {
      if (spec.encoding === 'form' || spec.encoding === 'multipart') expect(spec.method, name).toBe('POST');
      if (spec.encoding === 'query') expect(spec.method, name).toBe('GET');
    }
  });

  it('has one call per method and path', () => {
    const keys = calls.map(([, spec]) => `${spec.method} ${spec.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('sends the contact form without credentials, and every other call with them (SPEC.md section 7)', () => {
    expect(calls.filter(([, spec]) => !spec.credentials).map(([name]) => name)).toEqual(['submitContactInfo']);
  });

  it('uses the encodings SPEC.md section 7 names', () => {
    expect(API_CALLS.addCartItem.encoding).toBe('form');
    expect(API_CALLS.updateRoles.encoding).toBe('multipart');
    expect(API_CALLS.submitContactInfo.encoding).toBe('multipart');
    expect(API_CALLS.addTarget.encoding).toBe('multipart');
    expect(API_CALLS.updateEventOrderStatus.encoding).toBe('multipart');
    expect(API_CALLS.updateNotificationStatus.encoding).toBe('form');
    expect(API_CALLS.getEventOrderDetails.encoding).toBe('query');
  });
});
