// A small QR code encoder (ISO/IEC 18004): byte mode, error correction level M, versions 1-10 (up to 213
// bytes, far more than an invite link). Written here so the waiting room can show the link as a QR code
// without a CDN or a third-party script (the page's CSP allows scripts from this origin only).
//
// encodeQR(text, {mask}) -> {version, mask, size, modules}: modules[y][x] is true for a dark module.
// qrSvg(text) -> an <svg> element (built with DOM calls, no markup strings) with a 4-module quiet zone.

// ---- error correction level M, per version: [EC codewords per block, blocks of group 1, data codewords in
// a group-1 block, blocks of group 2 (data codewords one more)]
const EC_M = [null,
  [10, 1, 16, 0], [16, 1, 28, 0], [26, 1, 44, 0], [18, 2, 32, 0], [24, 2, 43, 0],
  [16, 4, 27, 0], [18, 4, 31, 0], [22, 2, 38, 2], [22, 3, 36, 2], [26, 4, 43, 1]];
const ALIGN = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
export const MAX_VERSION = 10;

function dataCodewords(version) {
  const [, g1, d1, g2] = EC_M[version];
  return g1 * d1 + g2 * (d1 + 1);
}

/** The largest number of bytes each version holds at level M (byte mode). */
export function byteCapacity(version) {
  const countBits = version < 10 ? 8 : 16;
  return Math.floor((dataCodewords(version) * 8 - 4 - countBits) / 8);
}

// ---- GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1
function gfMul(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMul(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMul(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = divisor.map(() => 0);
  for (const b of data) {
    const factor = b ^ result.shift();
    result.push(0);
    divisor.forEach((coef, i) => { result[i] ^= gfMul(coef, factor); });
  }
  return result;
}

// ---- data: mode, count, bytes, terminator, padding; then blocks with their EC codewords, interleaved
function buildCodewords(bytes, version) {
  const bits = [];
  const put = (value, len) => { for (let i = len - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(version) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));

  const [ecLen, g1, d1, g2] = EC_M[version];
  const divisor = rsDivisor(ecLen);
  const blocks = [];
  let k = 0;
  for (let b = 0; b < g1 + g2; b++) {
    const len = b < g1 ? d1 : d1 + 1;
    const dat = data.slice(k, k + len);
    k += len;
    blocks.push({ dat, ec: rsRemainder(dat, divisor) });
  }
  const out = [];
  for (let i = 0; i <= d1; i++) for (const blk of blocks) if (i < blk.dat.length) out.push(blk.dat[i]);
  for (let i = 0; i < ecLen; i++) for (const blk of blocks) out.push(blk.ec[i]);
  return out;
}

// ---- the symbol
const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class QrSymbol {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) { this.modules[y][x] = dark; this.fixed[y][x] = true; }

  drawFunctionPatterns() {
    const n = this.size;
    for (let i = 0; i < n; i++) { this.set(6, i, i % 2 === 0); this.set(i, 6, i % 2 === 0); }
    for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          const d = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < n && y >= 0 && y < n) this.set(x, y, d !== 2 && d !== 4);
        }
      }
    }
    const pos = ALIGN[this.version];
    const last = pos.length - 1;
    pos.forEach((ax, i) => pos.forEach((ay, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) this.set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }));
    this.drawFormat(0); // reserve the format area; the real bits are drawn with the chosen mask
    if (this.version >= 7) {
      let rem = this.version;
      for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
      const bits = (this.version << 12) | rem;
      for (let i = 0; i < 18; i++) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = n - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.set(a, b, dark);
        this.set(b, a, dark);
      }
    }
  }

  drawFormat(mask) {
    const n = this.size;
    const data = (0b00 << 3) | mask; // level M is 00
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.set(n - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, n - 15 + i, bit(i));
    this.set(8, n - 8, true); // the dark module
  }

  drawCodewords(codewords) {
    const n = this.size;
    let i = 0;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5; // skip the vertical timing pattern
      const upward = ((right + 1) & 2) === 0;
      for (let vert = 0; vert < n; vert++) {
        const y = upward ? n - 1 - vert : vert;
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          if (this.fixed[y][x] || i >= codewords.length * 8) continue;
          this.modules[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }

  applyMask(mask) {
    const f = MASKS[mask];
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) if (!this.fixed[y][x] && f(x, y)) this.modules[y][x] = !this.modules[y][x];
    }
  }

  /** The standard's penalty score (lower scans better): runs, 2x2 blocks, finder look-alikes, balance. */
  penalty() {
    const n = this.size;
    const m = this.modules;
    let score = 0;
    const line = (get) => {
      let run = 1;
      for (let i = 1; i <= n; i++) {
        if (i < n && get(i) === get(i - 1)) { run++; continue; }
        if (run >= 5) score += run - 2;
        run = 1;
      }
      const pat = [true, false, true, true, true, false, true];
      for (let i = 0; i + 7 <= n; i++) {
        if (!pat.every((v, k) => get(i + k) === v)) continue;
        const lightBefore = [1, 2, 3, 4].every((k) => i - k < 0 || !get(i - k));
        const lightAfter = [0, 1, 2, 3].every((k) => i + 7 + k >= n || !get(i + 7 + k));
        if (lightBefore || lightAfter) score += 40;
      }
    };
    for (let y = 0; y < n; y++) line((x) => m[y][x]);
    for (let x = 0; x < n; x++) line((y) => m[y][x]);
    let dark = 0;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (m[y][x]) dark++;
        if (x + 1 < n && y + 1 < n && m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] && m[y][x] === m[y + 1][x + 1]) score += 3;
      }
    }
    score += 10 * Math.floor(Math.abs((dark * 100) / (n * n) - 50) / 5);
    return score;
  }
}

/**
 * Encode `text` (UTF-8 bytes) in the smallest version that holds it at level M. `mask` forces a mask pattern
 * (0-7, for tests); otherwise the one with the lowest penalty is used. Throws a RangeError past version 10.
 */
export function encodeQR(text, { mask = null } = {}) {
  const bytes = Array.from(new TextEncoder().encode(String(text)));
  let version = 1;
  while (version <= MAX_VERSION && bytes.length > byteCapacity(version)) version++;
  if (version > MAX_VERSION) throw new RangeError(`QR: ${bytes.length} bytes is too long (max ${byteCapacity(MAX_VERSION)})`);
  const codewords = buildCodewords(bytes, version);
  const build = (mk) => {
    const s = new QrSymbol(version);
    s.drawFunctionPatterns();
    s.drawCodewords(codewords);
    s.applyMask(mk);
    s.drawFormat(mk);
    return s;
  };
  let best = null;
  let bestMask = 0;
  for (const mk of mask == null ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask]) {
    const s = build(mk);
    const p = mask == null ? s.penalty() : 0;
    if (best == null || p < best.p) { best = { s, p }; bestMask = mk; }
  }
  return { version, mask: bestMask, size: best.s.size, modules: best.s.modules };
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** The QR code of `text` as an <svg> (dark modules in one path on a white square, 4-module quiet zone). */
export function qrSvg(text, { border = 4, label = "QR 코드" } = {}) {
  const qr = encodeQR(text);
  const full = qr.size + border * 2;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${full} ${full}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const bg = document.createElementNS(SVG_NS, "rect");
  bg.setAttribute("width", String(full));
  bg.setAttribute("height", String(full));
  bg.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG_NS, "path");
  let d = "";
  qr.modules.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x + border} ${y + border}h1v1h-1z`; }));
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(bg, path);
  svg.dataset.version = String(qr.version);
  return svg;
}
