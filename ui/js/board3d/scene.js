// A 3D board's three.js scene and what it is made of: camera, lights, materials, textures,
// geometries, the layers of marbles and marks, the merged marbles of light frames and what the
// model shows in it (scene-model.js). It holds no state of the board's: that is board-state.js.

import * as THREE from '../../vendor/three/three.module.js';
import { readPalette, makeMaterials, glowTexture, woodTexture } from './palette.js';
import { makePieceGeometries } from './pieces.js';
import { dottedLine, makeRingGeometries } from './marks.js';
import { makeBatch } from './batch.js';
import { makeSceneModel } from './scene-model.js';
import { isSharedTexture, sharedWood, sharedGlow, addLights } from './shared-renderer.js';

/** A board's scene; `dispose()` frees what it made (never the launch's shared resources). */
export function makeBoardScene() {
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(38, 1, 0.1, 100);
  addLights(scene);

  const palette = readPalette();
  const materials = makeMaterials(palette);
  // The launch's shared textures when the skin's wood is the same; the board's own otherwise.
  const textures = { glow: sharedGlow() || glowTexture(), wood: sharedWood(palette.colour('--star')) || woodTexture(palette.colour('--star')) };
  const ownTextures = Object.values(textures).filter((tx) => !isSharedTexture(tx));
  const pieceGeoms = makePieceGeometries();
  const ringGeoms = makeRingGeometries();
  const layers = { pieces: new THREE.Group(), rings: new THREE.Group(), last: new THREE.Group(), flying: new THREE.Group() };
  Object.values(layers).forEach((g) => scene.add(g));
  // A light frame draws the marbles merged (batch.js), with coarse spheres.
  const marbleBatch = makeBatch(layers.pieces);
  scene.add(marbleBatch.group);
  const previewLine = dottedLine(materials.flat('--path'), 0.05, 'preview-path');
  const routeLine = dottedLine(materials.flat('--route', 0.9), 0.05, 'route');
  scene.add(previewLine.mesh, routeLine.mesh);

  // What the model shows, in the scene (scene-model.js): world, ground, marbles, rings, ghost…
  const drawn = makeSceneModel({ scene, layers, materials, textures, pieceGeoms, ringGeoms, previewLine, routeLine });

  return {
    scene, camera, materials, textures, pieceGeoms, ringGeoms, layers, marbleBatch, previewLine, routeLine, drawn,
    marbles: drawn.marbles,
    rings: drawn.rings,
    /** The radius of the board's world (7 before the first model). */
    radius: () => (drawn.world ? drawn.world.radius : 7),
    dispose() {
      drawn.dispose();
      previewLine.dispose();
      routeLine.dispose();
      marbleBatch.dispose();
      pieceGeoms.dispose();
      ringGeoms.dispose();
      materials.dispose();
      ownTextures.forEach((tx) => tx.dispose());
    },
  };
}
