/**
 * The setup's QR code: the `otpauth://` URI as an SVG image, rendered by `uqr`
 * (UnJS's QR encoder: no dependencies, ESM, SVG output; the usual choice of
 * the field, `qrcode`, brings a PNG encoder and a CLI's dependencies with it).
 * Returned as a `data:` URL, so apps show it with `<img src>`: no markup of
 * ours is injected into their pages, and their CSP needs only `img-src data:`.
 * @module
 */
import { renderSVG } from "uqr"

export function qrDataUrl(text: string): string {
  const svg = renderSVG(text, { ecc: "M", border: 2, pixelSize: 6 })
  const bytes = new TextEncoder().encode(svg)
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `data:image/svg+xml;base64,${btoa(binary)}`
}
