import { Resvg } from '@resvg/resvg-js';

/** An SVG document rasterized by resvg (a prebuilt native renderer shipped in its npm package), with the system's fonts. */
export function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return resvg.render().asPng();
}
