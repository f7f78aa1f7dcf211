import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { profilePath, splitHandle } from './handle';

function ShowUsername() {
  return <>{useParams().username}</>;
}

/** The username the app's `/:username` route reads at `path`. */
const routedUsername = (path: string) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/posts/:postId" element="post" />
        <Route path="/:username" element={<ShowUsername />} />
      </Routes>
    </MemoryRouter>,
  );

describe('profilePath', () => {
  it('is the username after a slash for an account here', () => {
    expect(profilePath('mira')).toBe('/mira');
    expect(profilePath('mira.b_2')).toBe('/mira.b_2');
  });

  it('keeps the @ of a handle on another server readable', () => {
    expect(profilePath('bob@pixelfed.example')).toBe('/bob@pixelfed.example');
    expect(profilePath('bob@xn--bcher-kva.example')).toBe('/bob@xn--bcher-kva.example');
  });

  it('reaches the profile route with the whole handle, @ written or encoded', () => {
    expect(routedUsername(profilePath('bob@pixelfed.example'))).toBe('bob@pixelfed.example');
    expect(routedUsername('/bob%40pixelfed.example')).toBe('bob@pixelfed.example');
    expect(routedUsername(profilePath('a/b@x.example'))).toBe('a/b@x.example');
  });

  it('encodes what would leave the path segment', () => {
    expect(profilePath('a/b?c#d@e')).toBe('/a%2Fb%3Fc%23d@e');
    expect(profilePath('ü@x')).toBe('/%C3%BC@x');
  });
});

describe('splitHandle', () => {
  it('splits a handle, with or without its leading @', () => {
    expect(splitHandle('bob@pixelfed.example')).toEqual({ user: 'bob', host: 'pixelfed.example' });
    expect(splitHandle('@bob@pixelfed.example')).toEqual({ user: 'bob', host: 'pixelfed.example' });
  });

  it('gives a plain username no host', () => {
    expect(splitHandle('mira')).toEqual({ user: 'mira' });
    expect(splitHandle('@mira')).toEqual({ user: 'mira' });
    expect(splitHandle('mira@')).toEqual({ user: 'mira@' });
  });
});
