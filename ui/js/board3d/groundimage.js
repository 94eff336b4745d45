// The ground as one picture, for light frames (resolution.js). The plate's top with its 121 holes
// is about 2 800 long thin triangles that software GL sets up one by one; with the holes' floors,
// the zones and the ◎ marks it costs a light frame more than all the marbles drawn merged. So the
// ground is drawn once from straight above into a texture (same lights, same materials: its flat
// surfaces are lit the same from every side, as they have no specular), and a light frame draws
// that picture on the star's outline (a few triangles) plus the plate's bevelled edge. What a
// gesture's frame loses is the holes' depth (their floors sit flat in the picture) and some
// sharpness, unseen in motion; the sharp frame after the gesture draws the real ground.

import * as THREE from '../../vendor/three/three.module.js';

/** Side of the picture in pixels at most (and at most the canvas's buffer, where it is drawn). */
export const GROUND_IMAGE_PX = 512;

/** The picture's texture from the canvas's RGBA pixels (sRGB already), rows bottom first as readPixels gives them. */
export function pictureTexture(pixels, px) {
  const texture = new THREE.DataTexture(pixels, px, px, THREE.RGBAFormat);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.magFilter = THREE.LinearFilter;
  texture.minFilter = THREE.LinearFilter;
  texture.generateMipmaps = false;
  texture.needsUpdate = true;
  return texture;
}

/**
 * The picture's material. Transparent (at opacity 1): the same shader program as the glow's, and
 * drawn first of the transparent marks (the mesh's renderOrder), under the tint, rings and shapes,
 * as the real plate is. Its blend, depth and sampler states differ from the glow's, so software GL
 * builds a variant of that program for it: the setup screen's warm-up draws it once (index.js).
 */
export function pictureMaterial(texture) {
  return new THREE.MeshBasicMaterial({ map: texture, transparent: true });
}

/**
 * @param {{outline: {x:number, z:number}[]}} world
 * @param {{group: THREE.Group, plate: THREE.BufferGeometry}} ground from ground.js; its first
 *   child is the plate (materials: top, edge)
 */
export function makeGroundImage(world, ground) {
  const xs = world.outline.map((p) => p.x);
  const zs = world.outline.map((p) => p.z);
  const box = { minX: Math.min(...xs), maxX: Math.max(...xs), minZ: Math.min(...zs), maxZ: Math.max(...zs) };

  // The star's outline, flat at the plate's top, its picture mapped over the outline's box.
  const shape = new THREE.Shape(world.outline.map((p) => new THREE.Vector2(p.x, -p.z)));
  const card = new THREE.ShapeGeometry(shape);
  card.rotateX(-Math.PI / 2);
  const pos = card.attributes.position;
  const uv = card.attributes.uv;
  for (let i = 0; i < pos.count; i++) {
    uv.setXY(i, (pos.getX(i) - box.minX) / (box.maxX - box.minX), (box.maxZ - pos.getZ(i)) / (box.maxZ - box.minZ));
  }
  let texture = null;
  let material = null;
  let picture = null;
  const plateMesh = ground.group.children[0];
  const hidden = new THREE.MeshBasicMaterial({ visible: false });
  const edge = new THREE.Mesh(ground.plate, [hidden, plateMesh.material[1]]);
  edge.name = 'plate-edge';
  const group = new THREE.Group();
  group.name = 'ground-light';
  group.add(edge);
  group.visible = false;

  // Straight down on the box; screen up is −z, as the picture's v.
  const cx = (box.minX + box.maxX) / 2;
  const cz = (box.minZ + box.maxZ) / 2;
  const camera = new THREE.OrthographicCamera(box.minX - cx, box.maxX - cx, cz - box.minZ, cz - box.maxZ, 0.1, 20);
  camera.position.set(cx, 10, cz);
  camera.up.set(0, 0, -1);
  camera.lookAt(cx, 0, cz);
  camera.updateMatrixWorld();

  /**
   * Draws the ground alone from above (the scene's lights, nothing else) in a corner of the
   * canvas's own buffer and reads it back: drawn to the screen, the ground's materials use their
   * shader programs as they are (a render target would need linear-output variants of each,
   * compiled on the spot: half a second under software GL). The frame drawn next covers it.
   */
  function bake(renderer, scene) {
    const gl = renderer.getContext();
    const ratio = renderer.getPixelRatio();
    const buffer = renderer.getDrawingBufferSize(new THREE.Vector2());
    const px = Math.max(1, Math.min(GROUND_IMAGE_PX, buffer.x, buffer.y));
    const shown = [];
    for (const child of scene.children) {
      if (child.isLight || child === ground.group || !child.visible) continue;
      child.visible = false;
      shown.push(child);
    }
    const viewport = renderer.getViewport(new THREE.Vector4());
    const clear = renderer.getClearColor(new THREE.Color());
    const clearAlpha = renderer.getClearAlpha();
    const pixels = new Uint8Array(px * px * 4);
    try {
      renderer.setViewport(0, 0, px / ratio, px / ratio);
      renderer.setClearColor(0x000000, 0);
      renderer.clear();
      renderer.render(scene, camera);
      gl.readPixels(0, 0, px, px, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    } finally {
      renderer.setViewport(viewport);
      renderer.setClearColor(clear, clearAlpha);
      shown.forEach((c) => (c.visible = true));
    }
    texture = pictureTexture(pixels, px);
    // Uploaded now, at rest: on first use it would cost the first light frame tens of ms.
    renderer.initTexture(texture);
    material = pictureMaterial(texture);
    picture = new THREE.Mesh(card, material);
    picture.name = 'ground-image';
    picture.renderOrder = -1;
    group.add(picture);
  }

  return {
    group,
    get baked() { return !!picture; },
    /** Makes the picture, once: in a frame, before that frame's own drawing covers the canvas. */
    bake(renderer, scene) {
      if (!picture) bake(renderer, scene);
    },
    /** Runs `draw` with the picture and the plate's edge in place of the ground; before the picture is baked, with the ground. */
    draw(draw) {
      if (!picture) {
        draw();
        return;
      }
      ground.group.visible = false;
      group.visible = true;
      try {
        draw();
      } finally {
        ground.group.visible = true;
        group.visible = false;
      }
    },
    dispose() {
      card.dispose();
      hidden.dispose();
      if (material) material.dispose();
      if (texture) texture.dispose();
    },
  };
}
