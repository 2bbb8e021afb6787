import { existsSync } from 'node:fs';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';

/** The faces the chart names first (Debian's fonts-dejavu-core, which chromium pulls in). */
const DEJAVU = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'];

let fonts: ResvgRenderOptions['font'] | undefined;

/** Two known files when present: scanning every system font costs each render about 30 ms more. */
function fontOptions(): ResvgRenderOptions['font'] {
  fonts ??= DEJAVU.every((f) => existsSync(f))
    ? { loadSystemFonts: false, fontFiles: DEJAVU, defaultFontFamily: 'DejaVu Sans' }
    : { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' };
  return fonts;
}

/**
 * An SVG document rasterized by resvg (a prebuilt native renderer shipped in its npm package), on
 * libuv's thread pool: a render takes tens of milliseconds of CPU, which must not hold the event loop.
 */
export async function svgToPng(svg: string): Promise<Buffer> {
  return (await renderAsync(svg, { fitTo: { mode: 'original' }, font: fontOptions() })).asPng();
}
