import { describe, expect, it } from 'vitest';
import { clickKey, jobIdOf, openClick, signClick } from '../../src/domain/click-token.js';

const key = clickKey('known-answer-secret-0123456789abcdef');

describe('click tokens', () => {
  it('known answers: HMAC-SHA256 over "click1|listing|key|job", first 16 bytes, base64url', () => {
    // Pinned: changing the format breaks every link already handed out.
    expect(signClick(key, { listingId: 12345, keyId: 7, jobId: null })).toBe('9ix.7.AT63DhMxIoOOjEXEoiLqlw');
    expect(signClick(key, { listingId: 12345, keyId: 7, jobId: 'job-1' })).toBe('9ix.7.gRbp4GGsy6hawyPjhsDEpg');
  });

  it('opens only with the same secret and job id, in its one spelling', () => {
    const token = '9ix.7.gRbp4GGsy6hawyPjhsDEpg';
    expect(openClick(key, token, 'job-1')).toEqual({ listingId: 12345, keyId: 7, jobId: 'job-1' });
    expect(openClick(key, token, null)).toBeNull();
    expect(openClick(key, token, 'job-2')).toBeNull();
    expect(openClick(clickKey('another-secret-0123456789abcdefgh'), token, 'job-1')).toBeNull();
    expect(openClick(key, '09ix.7.gRbp4GGsy6hawyPjhsDEpg', 'job-1')).toBeNull();
    expect(openClick(key, '9ix.7.gRbp4GGsy6hawyPjhsDEph', 'job-1')).toBeNull(); // unused bits of the last character
    expect(openClick(key, '9iy.7.gRbp4GGsy6hawyPjhsDEpg', 'job-1')).toBeNull();
    for (const bad of ['', '9ix.7', '9ix.7.short', '9IX.7.gRbp4GGsy6hawyPjhsDEpg', 'zzzzzzzzzzzz.7.gRbp4GGsy6hawyPjhsDEpg', '9ix.7.gRbp4GGsy6hawyPjhsDEpg.x']) {
      expect(openClick(key, bad, 'job-1'), bad).toBeNull();
    }
  });

  it('a job id is URL-safe and 1 to 128 characters; anything else is none', () => {
    expect(jobIdOf('job_2026-11-21_ABC')).toBe('job_2026-11-21_ABC');
    expect(jobIdOf('j'.repeat(128))).toBe('j'.repeat(128));
    for (const bad of [undefined, null, '', 'j'.repeat(129), 'a b', 'a/b', 'a.b', 'é', 'a?b=c', 'https://x.test']) expect(jobIdOf(bad), String(bad)).toBeNull();
  });
});
