/**
 * GLSL ES 3.0 programs. All work in device pixels: the model snaps geometry to the device pixel
 * grid, and the vertex shaders map pixels straight to clip space, so a 1 px line stays 1 px.
 * Pixi's blending is premultiplied-alpha, so colours are premultiplied in the vertex stage.
 * No draw is instanced (see render/quads.ts): a quad's record is in each of its four vertices and
 * `aCorner` says which corner the vertex is.
 */
/**
 * Series quads (wicks, bodies, volume), corners computed on the CPU in device pixels — the
 * corners the former instanced candle shader computed (left/right/top/bottom of each part), so the
 * same pixels.
 */
export const SERIES_VERTEX = /* glsl */ `#version 300 es
precision highp float;
in vec2 aPos;
in vec4 aColor;
uniform vec2 uSize;
out vec4 vColor;

void main() {
  vColor = vec4(aColor.rgb * aColor.a, aColor.a);
  gl_Position = vec4(aPos.x / uSize.x * 2.0 - 1.0, 1.0 - aPos.y / uSize.y * 2.0, 0.0, 1.0);
}
`;

export const COLOR_FRAGMENT = /* glsl */ `#version 300 es
precision mediump float;
in vec4 vColor;
out vec4 finalColor;
void main() {
  finalColor = vColor;
}
`;

export const PRIM_VERTEX = /* glsl */ `#version 300 es
precision highp float;
in vec2 aCorner;
in vec4 aGeom;    // rect: l t r b · segment: x1 y1 x2 y2 · circle: cx cy r _
in vec4 aParams;  // kind, width, dash, gap
in vec4 aColor;
in vec4 aColor2;
uniform vec2 uSize;
out vec4 vColor;
out vec4 vColor2;
out vec2 vLocal;
flat out vec4 vParams;
flat out float vRadius;

void main() {
  float kind = aParams.x;
  vec2 p;
  vRadius = 0.0;
  vLocal = vec2(0.0);
  if (kind < 0.5) {
    p = mix(aGeom.xy, aGeom.zw, aCorner);
  } else if (kind < 1.5) {
    vec2 dir = aGeom.zw - aGeom.xy;
    float len = length(dir);
    vec2 d = len > 0.0 ? dir / len : vec2(1.0, 0.0);
    vec2 n = vec2(-d.y, d.x);
    // One extra pixel each side for the anti-aliased edge.
    float half_ = aParams.y * 0.5 + 1.0;
    float along = aCorner.x * len;
    float across = (aCorner.y * 2.0 - 1.0) * half_;
    p = aGeom.xy + d * along + n * across;
    vLocal = vec2(along, across);
  } else {
    float r = aGeom.z + 1.0;
    vec2 off = (aCorner * 2.0 - 1.0) * r;
    p = aGeom.xy + off;
    vLocal = off;
    vRadius = aGeom.z;
  }
  vColor = aColor;
  vColor2 = aColor2;
  vParams = aParams;
  gl_Position = vec4(p.x / uSize.x * 2.0 - 1.0, 1.0 - p.y / uSize.y * 2.0, 0.0, 1.0);
}
`;

export const PRIM_FRAGMENT = /* glsl */ `#version 300 es
precision highp float;
in vec4 vColor;
in vec4 vColor2;
in vec2 vLocal;
flat in vec4 vParams;
flat in float vRadius;
out vec4 finalColor;

void main() {
  float kind = vParams.x;
  vec4 c = vColor;
  if (kind > 0.5 && kind < 1.5) {
    float dash = vParams.z;
    float gap = vParams.w;
    if (dash > 0.0 && mod(vLocal.x, dash + gap) >= dash) discard;
    c.a *= clamp(vParams.y * 0.5 + 0.5 - abs(vLocal.y), 0.0, 1.0);
  } else if (kind > 1.5) {
    float dist = length(vLocal);
    float border = vParams.y;
    float edge = clamp(vRadius + 0.5 - dist, 0.0, 1.0);
    float t = border > 0.0 ? clamp(dist - (vRadius - border) + 0.5, 0.0, 1.0) : 0.0;
    c = mix(vColor, vColor2, t);
    c.a *= edge;
  }
  if (c.a <= 0.0) discard;
  finalColor = vec4(c.rgb * c.a, c.a);
}
`;

/**
 * Polylines: quad i is the segment from point i to point i + 1 (its vertices carry both points).
 * A segment touching a break point (y ≤ −1e29) collapses outside the clip space. Quads reach one pixel past the line's half width across (anti-aliased edge) and half
 * a width past each end along, so consecutive segments overlap at joins instead of notching.
 */
export const LINE_VERTEX = /* glsl */ `#version 300 es
precision highp float;
in vec2 aCorner;
in vec2 aA;
in vec2 aB;
in vec4 aColor;
uniform vec2 uSize;
uniform float uWidth;
out vec4 vColor;
out float vAcross;
out float vHalf;

void main() {
  vColor = aColor;
  vHalf = uWidth * 0.5;
  vAcross = 0.0;
  if (aA.y < -1e29 || aB.y < -1e29) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  vec2 dir = aB - aA;
  float len = length(dir);
  vec2 d = len > 0.0 ? dir / len : vec2(1.0, 0.0);
  vec2 n = vec2(-d.y, d.x);
  float across = (aCorner.y * 2.0 - 1.0) * (vHalf + 1.0);
  float along = mix(-vHalf, len + vHalf, aCorner.x);
  vec2 p = aA + d * along + n * across;
  vAcross = across;
  gl_Position = vec4(p.x / uSize.x * 2.0 - 1.0, 1.0 - p.y / uSize.y * 2.0, 0.0, 1.0);
}
`;

export const LINE_FRAGMENT = /* glsl */ `#version 300 es
precision highp float;
in vec4 vColor;
in float vAcross;
in float vHalf;
out vec4 finalColor;

void main() {
  float a = vColor.a * clamp(vHalf + 0.5 - abs(vAcross), 0.0, 1.0);
  if (a <= 0.0) discard;
  finalColor = vec4(vColor.rgb * a, a);
}
`;
