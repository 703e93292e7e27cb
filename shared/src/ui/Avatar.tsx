import { useState } from 'react';
import styled from 'styled-components';

/** The generic picture (SPEC.md section 3): inline, so it cannot fail to load itself. */
export const DEFAULT_AVATAR =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'%3E%3Crect width='40' height='40' fill='%23d2d2d7'/%3E%3Ccircle cx='20' cy='15' r='7' fill='%23fff'/%3E%3Cpath d='M6 36c2-8 8-11 14-11s12 3 14 11' fill='%23fff'/%3E%3C/svg%3E";

const Img = styled.img<{ $size: number }>`
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  border-radius: 50%;
  object-fit: cover;
  flex: none;
`;

/** A profile picture that falls back to the generic one when missing or broken (SPEC.md section 8). */
export function Avatar({ src, name, size = 32 }: { src: string | null | undefined; name: string; size?: number }) {
  const [broken, setBroken] = useState(false);
  const usable = src && !broken && /^(https?:|\/)/.test(src) ? src : DEFAULT_AVATAR;
  return <Img $size={size} src={usable} alt={name} onError={() => setBroken(true)} />;
}
