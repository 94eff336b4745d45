// A group's meshes drawn merged, one mesh per material: the light frames' marbles (resolution.js).
// Software GL pays for every draw call, in three.js, WebKit's WebGL and llvmpipe: 45 marbles with
// their shapes and crowns are about 105 calls, which cost a light frame more than its pixels do;
// merged they are one call per material (about 8). The merged meshes hold the meshes' vertices
// moved to where they are in the world, refilled for every frame drawn through them, with the
// same materials, so shader programs and looks stay the same. Only positions and normals are
// carried: the marbles' materials have no texture. Drawing only: picking still raycasts the
// marbles themselves, which are back in place once the frame is drawn.

import * as THREE from '../../vendor/three/three.module.js';

/** Merged drawing of the visible meshes under `source` (a group). */
export function makeBatch(source) {
  const group = new THREE.Group();
  group.name = 'batch';
  group.visible = false;
  const byMaterial = new Map(); // material → { mesh, key: the merged geometries, in order }
  const normalMatrix = new THREE.Matrix3();

  function meshesByMaterial() {
    const lists = new Map();
    source.traverseVisible((o) => {
      if (!o.isMesh || Array.isArray(o.material)) return;
      let list = lists.get(o.material);
      if (!list) lists.set(o.material, (list = []));
      list.push(o);
    });
    return lists;
  }

  /** A geometry with room for `meshes`' vertices and their indices, offset for each mesh. */
  function mergedGeometry(meshes) {
    let vertices = 0;
    let indices = 0;
    for (const m of meshes) {
      const g = m.geometry;
      vertices += g.attributes.position.count;
      indices += g.index ? g.index.count : g.attributes.position.count;
    }
    const index = new (vertices > 65535 ? Uint32Array : Uint16Array)(indices);
    let base = 0;
    let at = 0;
    for (const m of meshes) {
      const g = m.geometry;
      const count = g.attributes.position.count;
      if (g.index) {
        const src = g.index.array;
        for (let i = 0; i < src.length; i++) index[at++] = src[i] + base;
      } else {
        for (let i = 0; i < count; i++) index[at++] = i + base;
      }
      base += count;
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(vertices * 3), 3).setUsage(THREE.DynamicDrawUsage));
    geometry.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(vertices * 3), 3).setUsage(THREE.DynamicDrawUsage));
    geometry.setIndex(new THREE.BufferAttribute(index, 1));
    return geometry;
  }

  /** Writes `meshes`' vertices, in world space, into `geometry`. */
  function fill(geometry, meshes) {
    const pos = geometry.attributes.position.array;
    const nrm = geometry.attributes.normal.array;
    let at = 0;
    for (const m of meshes) {
      const e = m.matrixWorld.elements;
      const n = normalMatrix.getNormalMatrix(m.matrixWorld).elements;
      const p = m.geometry.attributes.position.array;
      const q = m.geometry.attributes.normal.array;
      for (let i = 0; i < p.length; i += 3, at += 3) {
        const x = p[i], y = p[i + 1], z = p[i + 2];
        pos[at] = e[0] * x + e[4] * y + e[8] * z + e[12];
        pos[at + 1] = e[1] * x + e[5] * y + e[9] * z + e[13];
        pos[at + 2] = e[2] * x + e[6] * y + e[10] * z + e[14];
        const a = q[i], b = q[i + 1], c = q[i + 2];
        const nx = n[0] * a + n[3] * b + n[6] * c;
        const ny = n[1] * a + n[4] * b + n[7] * c;
        const nz = n[2] * a + n[5] * b + n[8] * c;
        const len = Math.hypot(nx, ny, nz) || 1;
        nrm[at] = nx / len;
        nrm[at + 1] = ny / len;
        nrm[at + 2] = nz / len;
      }
    }
    geometry.attributes.position.needsUpdate = true;
    geometry.attributes.normal.needsUpdate = true;
  }

  function update(material, meshes) {
    let entry = byMaterial.get(material);
    if (!entry) {
      const mesh = new THREE.Mesh(new THREE.BufferGeometry(), material);
      mesh.name = 'batch-part';
      mesh.frustumCulled = false; // its vertices move every frame; the board is always in view
      mesh.matrixAutoUpdate = false;
      group.add(mesh);
      entry = { mesh, key: '' };
      byMaterial.set(material, entry);
    }
    const key = meshes.map((m) => m.geometry.id).join(',');
    if (entry.key !== key) {
      entry.mesh.geometry.dispose();
      entry.mesh.geometry = mergedGeometry(meshes);
      entry.key = key;
    }
    entry.mesh.visible = true;
    fill(entry.mesh.geometry, meshes);
  }

  return {
    group,
    /** Runs `draw` (a renderer.render) with `source` drawn through the merged meshes. */
    draw(draw) {
      source.updateWorldMatrix(true, true);
      const lists = meshesByMaterial();
      for (const [material, entry] of byMaterial) if (!lists.has(material)) entry.mesh.visible = false;
      for (const [material, meshes] of lists) update(material, meshes);
      source.visible = false;
      group.visible = true;
      try {
        draw();
      } finally {
        source.visible = true;
        group.visible = false;
      }
    },
    /** Draw calls the merged drawing makes (its visible parts after the last `draw`). */
    get parts() {
      let n = 0;
      for (const { mesh } of byMaterial.values()) if (mesh.visible) n++;
      return n;
    },
    dispose() {
      for (const { mesh } of byMaterial.values()) mesh.geometry.dispose();
      byMaterial.clear();
      group.clear();
    },
  };
}
