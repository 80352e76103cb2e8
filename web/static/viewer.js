/* AssetCheck job page: the 3D viewer of each model file, with the report's issues drawn on it.
   three.js (web/static/vendor/, built by tools/three/build.sh) draws; everything the overlays
   show was computed by the worker (/jobs/{id}/models/{n}.json), the page validates nothing.
   Only this site's own URLs are fetched: the model is one self-contained GLB per file, and its
   images are decoded from its own bytes, never through a URL (the page's CSP has no blob:). */
import {
  AmbientLight, Box3, BufferGeometry, CanvasTexture, Color, DirectionalLight, DoubleSide,
  Float32BufferAttribute, GLTFLoader, HemisphereLight, Mesh, MeshBasicMaterial, NearestFilter,
  OrbitControls, PerspectiveCamera, Points, PointsMaterial, RepeatWrapping,
  SRGBColorSpace, Scene, Sphere, Texture, Vector3, WebGLRenderer,
} from "./vendor/three.bundle.min.js";

const WARNING = new Color("#e8590c");
const NO_UV = 0xd6336c;
const GHOST = new MeshBasicMaterial({color: 0x9aa3ad, transparent: true, opacity: 0.12,
                                     depthWrite: false});
const KEY_ANGLE = Math.PI / 24;
/* The view is as wide as its card, and three quarters as tall, but no taller than this share
   of the window's height (or MIN_HEIGHT pixels, on a very short window). */
const HEIGHT_SHARE = 0.7;
const MIN_HEIGHT = 240;
const HELP = "Drag to turn, scroll to zoom, right-drag to pan; or focus the view and use the "
  + "arrow keys, Shift+arrows to pan, + and − to zoom, 0 to reset.";
/* What a marked element is, in the caption after "Show on model" (the overlays' "marks"). */
const MARKED = {
  "vertices": (n) => `orange dots mark the ${n} vertices`,
  "corners": (n) => `orange dots mark the ${n} corners that exist`,
  "triangle centres": (n) => `an orange dot marks the centre of each of the ${n} triangles`,
  "triangles": (n) => `orange marks the ${n} triangles`,
  "joints": (n) => `orange dots mark the ${n} joints`,
  "bones": (n) => `orange dots mark the ${n} bones`,
};
const ONE_MARKED = {
  "vertices": "an orange dot marks the vertex", "corners": "an orange dot marks the corner",
  "triangle centres": "an orange dot marks the centre of the triangle",
  "triangles": "orange marks the triangle",
  "joints": "an orange dot marks the joint", "bones": "an orange dot marks the bone",
};
const TEXTURE_SLOTS = ["map", "normalMap", "roughnessMap", "metalnessMap", "emissiveMap",
                       "aoMap", "alphaMap"];

/* Images inside the GLB become textures through createImageBitmap on their bytes: no object
   URL, so nothing outside the page's img-src/connect-src 'self' is needed. */
class EmbeddedImages {
  constructor(parser) { this.parser = parser; this.name = "assetcheck_embedded_images"; }

  loadTexture(textureIndex) {
    const parser = this.parser;
    const texture = parser.json.textures[textureIndex];
    const image = parser.json.images[texture.source];
    if (image.bufferView === undefined) return null;
    const loader = {isKTX2Loader: true, parse(data, onLoad, onError) {
      createImageBitmap(new Blob([data], {type: image.mimeType}),
                        {premultiplyAlpha: "none", colorSpaceConversion: "none"})
        .then((bitmap) => { const made = new Texture(bitmap); made.needsUpdate = true; onLoad(made); },
              onError);
    }};
    return parser.loadTextureImage(textureIndex, texture.source, loader);
  }
}

function checkerTexture() {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 256;
  const context = canvas.getContext("2d");
  for (let row = 0; row < 8; row++) {
    for (let column = 0; column < 8; column++) {
      context.fillStyle = (row + column) % 2 ? "#20242a" : `hsl(${column * 40}, 70%, ${50 + row * 4}%)`;
      context.fillRect(column * 32, row * 32, 32, 32);
    }
  }
  const texture = new CanvasTexture(canvas);
  texture.wrapS = texture.wrapT = RepeatWrapping;
  texture.magFilter = NearestFilter;
  texture.colorSpace = SRGBColorSpace;
  return texture;
}

function webglAvailable() {
  try {
    const canvas = document.createElement("canvas");
    return Boolean(canvas.getContext("webgl2") || canvas.getContext("webgl"));
  } catch (error) {
    return false;
  }
}

/* Reads the body with progress, then gives the bytes. */
async function download(url, onProgress) {
  const response = await fetch(url, {credentials: "same-origin"});
  if (!response.ok) throw new Error(`The model could not be loaded (HTTP ${response.status}).`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  const reader = response.body.getReader();
  const parts = [];
  let received = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    if (total) onProgress(received / total);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const part of parts) { bytes.set(part, offset); offset += part.length; }
  return bytes.buffer;
}

class ModelViewer {
  constructor(figure) {
    this.figure = figure;
    this.stage = figure.querySelector(".viewer-stage");
    this.status = figure.querySelector(".viewer-status");
    this.progress = figure.querySelector(".viewer-progress");
    this.legendBox = figure.querySelector(".viewer-legend");
    this.loading = null;
    this.linked = [];  // viewers whose cameras move with this one's (the comparison's views)
    this.following = false;
    figure.querySelectorAll("[data-action]").forEach((button) => {
      button.addEventListener("click", () => this.act(button));
    });
  }

  say(text) { this.status.textContent = text; }

  load() {
    if (!this.loading) this.loading = this.start();
    return this.loading;
  }

  async start() {
    const started = performance.now();
    this.figure.dataset.state = "loading";
    this.figure.querySelector("[data-action=load]")?.setAttribute("hidden", "");
    this.progress.hidden = false;
    this.say("Loading the model…");
    try {
      const [data, overlays] = await Promise.all([
        download(this.figure.dataset.model, (share) => { this.progress.value = share * 100; }),
        fetch(this.figure.dataset.overlays, {credentials: "same-origin"}).then((r) => r.json()),
      ]);
      this.overlays = overlays.entries;
      this.uses = overlays.uses || {};
      this.textureUses = overlays.textures || [];
      const loader = new GLTFLoader();
      loader.register((parser) => new EmbeddedImages(parser));
      this.gltf = await loader.parseAsync(data, "");
      this.show();
      await new Promise((resolve) => requestAnimationFrame(resolve));  // the frame is on screen
      this.figure.dataset.firstFrameMs = String(Math.round(performance.now() - started));
      this.figure.dataset.state = "ready";
      this.say(HELP);
    } catch (error) {
      this.figure.dataset.state = "failed";
      this.say(error.message || "The model could not be shown.");
      throw error;
    } finally {
      this.progress.hidden = true;
    }
  }

  show() {
    const canvas = document.createElement("canvas");
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", this.figure.dataset.label || "3D view of " + this.figure.dataset.filename);
    this.renderer = new WebGLRenderer({canvas, antialias: true, alpha: true});
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.stage.replaceChildren(canvas);
    this.stage.hidden = false;
    const [width, height] = this.viewSize = this.size();
    this.renderer.setSize(width, height);
    this.scene = new Scene();
    // A sky-and-ground fill, a key light from the upper front right and a weak back light:
    // each side of a box gets its own brightness, so the shape reads.
    this.scene.add(new HemisphereLight(0xffffff, 0x3d424d, 0.9), new AmbientLight(0xffffff, 0.15));
    const key = new DirectionalLight(0xffffff, 2.6);
    const back = new DirectionalLight(0xc8d4ff, 0.6);
    key.position.set(2, 4, 3);
    back.position.set(-3, 1, -4);
    this.scene.add(key, back);
    this.model = this.gltf.scene;
    this.scene.add(this.model);
    this.meshes = [];
    this.model.traverse((object) => {
      if (object.isMesh) { object.userData.material = object.material; this.meshes.push(object); }
    });
    this.camera = new PerspectiveCamera(40, width / height, 0.001, 1000);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener("change", () => { this.render(); this.lead(); });
    canvas.addEventListener("keydown", (event) => this.key(event));
    this.figure.querySelector(".viewer-tools").hidden = false;
    this.frame();
    const shown = this.linked.find((other) => other.camera);
    if (shown) this.follow(shown);  // the view shown first sets where both look from
    new ResizeObserver(() => this.resize()).observe(this.stage);
  }

  /* Move the linked viewers' cameras to this one's: turning, zooming or panning one view
     moves the others the same way. */
  lead() {
    if (this.following) return;
    for (const other of this.linked) if (other.camera) other.follow(this);
  }

  follow(leader) {
    this.following = true;
    this.camera.position.copy(leader.camera.position);
    this.camera.quaternion.copy(leader.camera.quaternion);
    this.camera.near = leader.camera.near;
    this.camera.far = leader.camera.far;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(leader.controls.target);
    this.controls.update();
    this.following = false;
    this.render();
  }

  /* The view's size in CSS pixels: its card's width, and a height from it and the window. */
  size() {
    const width = Math.max(1, Math.floor(this.stage.clientWidth));
    const tallest = Math.max(MIN_HEIGHT, window.innerHeight * HEIGHT_SHARE);
    return [width, Math.round(Math.min(width * 0.75, tallest))];
  }

  resize() {
    const [width, height] = this.size();
    if (width === this.viewSize[0] && height === this.viewSize[1]) return;
    this.viewSize = [width, height];
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  /* Fit the camera to the model from the same three-quarter view as the picture. */
  frame() {
    const sphere = new Box3().setFromObject(this.model).getBoundingSphere(new Sphere());
    const radius = sphere.radius > 0 && Number.isFinite(sphere.radius) ? sphere.radius : 1;
    const distance = radius / Math.sin((this.camera.fov * Math.PI) / 360) * 1.1;
    const direction = new Vector3(Math.sin(0.61), Math.sin(0.44), Math.cos(0.61)).normalize();
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.position.copy(sphere.center).addScaledVector(direction, distance);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(sphere.center);
    this.controls.update();
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
    if (this.linked.length) {  // where a linked view looks from, for people's tools and tests
      this.figure.dataset.camera = [...this.camera.position.toArray(), ...this.controls.target.toArray()]
        .map((n) => n.toFixed(4)).join(" ");
    }
  }

  key(event) {
    const offset = this.camera.position.clone().sub(this.controls.target);
    const right = new Vector3().crossVectors(this.camera.up, offset).normalize();
    const step = offset.length() * 0.05;
    const moves = {
      ArrowLeft: () => (event.shiftKey ? this.pan(right, -step) : offset.applyAxisAngle(this.camera.up, -KEY_ANGLE)),
      ArrowRight: () => (event.shiftKey ? this.pan(right, step) : offset.applyAxisAngle(this.camera.up, KEY_ANGLE)),
      ArrowUp: () => (event.shiftKey ? this.pan(this.camera.up, step) : offset.applyAxisAngle(right, -KEY_ANGLE)),
      ArrowDown: () => (event.shiftKey ? this.pan(this.camera.up, -step) : offset.applyAxisAngle(right, KEY_ANGLE)),
      "+": () => offset.multiplyScalar(0.85), "=": () => offset.multiplyScalar(0.85),
      "-": () => offset.multiplyScalar(1 / 0.85),
    };
    if (event.key === "0" || event.key === "Home") { event.preventDefault(); this.frame(); return; }
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
    this.camera.position.copy(this.controls.target).add(offset);
    this.controls.update();
  }

  pan(axis, distance) {
    const shift = axis.clone().multiplyScalar(distance);
    this.controls.target.add(shift);
    this.camera.position.add(shift);
  }

  act(button) {
    const action = button.dataset.action;
    if (action === "load") { this.load(); return; }
    if (!this.renderer) return;
    if (action === "reset") { this.clearFocus(); this.frame(); this.say(HELP); return; }
    const pressed = button.getAttribute("aria-pressed") !== "true";
    button.setAttribute("aria-pressed", String(pressed));
    if (action === "wireframe") this.wireframe = pressed;
    if (action === "uv-checker") this.checker = pressed;
    this.paint();
  }

  /* Every mesh's material from the current state: focus, UV checker, wireframe. Materials
     made here are made once and reused, so toggling costs no GPU memory. A model with no UVs
     at all keeps its materials under the UV checker: the legend says there is nothing to see. */
  paint() {
    this.made = this.made || new Map();
    const once = (key, make) => {
      if (!this.made.has(key)) this.made.set(key, make());
      return this.made.get(key);
    };
    const checker = this.checker && this.meshes.some((mesh) => mesh.geometry.attributes.uv);
    for (const mesh of this.meshes) {
      let material = mesh.userData.material;
      if (this.focus && !this.focus.meshes.has(mesh)) {
        material = GHOST;
      } else if (this.focus && this.focus.texture) {
        const texture = this.focus.texture;
        material = once(texture, () => new MeshBasicMaterial({map: texture, side: DoubleSide}));
      } else if (checker) {
        material = mesh.geometry.attributes.uv
          ? once("checker", () => new MeshBasicMaterial({map: checkerTexture(), side: DoubleSide}))
          : once("no-uv", () => new MeshBasicMaterial({color: NO_UV, side: DoubleSide}));
      }
      if (this.wireframe && material !== GHOST) {
        const solid = material;
        material = once(solid.uuid + "-wireframe", () => {
          const wire = solid.clone();
          wire.wireframe = true;
          return wire;
        });
      }
      mesh.material = material;
    }
    this.legend();
    this.render();
  }

  /* The legend under the toolbar: what the finding shown on the model is and what its colour
     marks, what the UV checker's colours mean, what the wireframe's lines are. */
  legend() {
    const parts = [];
    if (this.focus) {
      parts.push([this.focus.caption, this.focus.items]);
    } else if (this.checker) {
      const without = this.meshes.filter((mesh) => !mesh.geometry.attributes.uv).length;
      if (without === this.meshes.length) {
        parts.push(["This model has no UV coordinates: no texture can be laid on it, so there "
                    + "is no layout to check.", []]);
      } else {
        const items = [["checker", "Coloured squares: the texture layout (UVs). Even, square "
                        + "tiles mean even texel density; stretched, squashed or differently "
                        + "sized tiles mean distorted UVs."]];
        if (without) {
          items.push(["no-uv", `Pink: ${without === 1 ? "1 mesh has" : `${without} meshes have`} `
                      + "no UV coordinates."]);
        }
        parts.push(["UV checker", items]);
      }
    }
    if (this.wireframe) {
      parts.push(["Wireframe", [["wire", "Lines: the edges of every triangle."]]]);
    }
    const nodes = parts.map(([caption, items]) => {
      const block = document.createElement("div");
      const title = document.createElement("p");
      title.className = "viewer-caption";
      title.textContent = caption;
      block.append(title);
      if (items.length) {
        const list = document.createElement("ul");
        for (const [kind, text] of items) {
          const item = document.createElement("li");
          const swatch = document.createElement("span");
          swatch.className = `swatch swatch-${kind}`;
          swatch.setAttribute("aria-hidden", "true");
          item.append(swatch, text);
          list.append(item);
        }
        block.append(list);
      }
      return block;
    });
    this.legendBox.replaceChildren(...nodes);
    this.legendBox.hidden = !nodes.length;
    this.figure.dataset.legend = this.focus ? "issue" : this.checker ? "uv-checker"
      : this.wireframe ? "wireframe" : "";
  }

  clearFocus() {
    this.focus = null;
    for (const marker of this.markers || []) {
      marker.removeFromParent();
      marker.geometry.dispose();
      marker.material.dispose();
    }
    this.markers = [];
    this.figure.dataset.focus = "";
    this.figure.dataset.focusMeshes = "0";
    this.paint();
  }

  /* Show one issue occurrence: isolate what its glTF pointer, its FBX or OBJ mesh name or
     the image (and material property) an FBX texture finding names, mark its listed elements,
     and say in the legend what it is (``headline``, in plain words) and what the colour
     marks. */
  async showIssue({code, pointer, mesh, image, material, headline}) {
    await this.load();
    this.clearFocus();
    const {meshes, texture} = image ? await this.textureNamed(image, material)
      : await this.pointedAt(pointer);
    const entries = this.overlays.filter((entry) => entry.code === code
      && (pointer ? entry.pointer === pointer : Boolean(mesh) && entry.name === mesh));
    if (mesh) {  // an FBX or OBJ finding: the mesh it names (the viewer's GLB keeps mesh names)
      this.meshes.filter((part) => part.geometry.userData.name === mesh)
        .forEach((part) => meshes.add(part));
    }
    if (!meshes.size && !entries.length) {
      this.say(`${headline}: this finding has nothing that can be shown on the model.`);
      return;
    }
    for (const entry of entries) this.mark(entry, meshes);
    const faded = this.meshes.some((part) => !meshes.has(part));
    const items = [];
    const listed = (entry) => Math.max((entry.points || []).length / 3,
                                       (entry.triangles || []).length / 9);
    const shown = entries.reduce((sum, entry) => sum + listed(entry), 0);
    const total = entries.reduce((sum, entry) => sum + (entry.count || listed(entry)), 0);
    let caption = headline;
    if (shown) {
      const marks = entries[0].marks || (entries[0].triangles ? "triangles" : "vertices");
      const said = shown === 1 ? ONE_MARKED[marks] : MARKED[marks](shown.toLocaleString());
      caption += ` — ${said}`
        + (total > shown ? ` (the first ${shown.toLocaleString()} of ${total.toLocaleString()})` : "")
        + ".";
      items.push(["mark", "Orange: what this finding is about."]);
    } else if (texture) {
      caption += " — the texture it is about is shown alone on the meshes that use it.";
      items.push(["texture", "The texture, without lighting, as its UVs lay it out."]);
    } else if (faded) {
      caption += ` — the ${mesh ? "mesh" : "part of the model"} it is about is shown, the rest `
        + "is faded.";
    } else {
      caption += " — it is about the whole model.";
    }
    if (faded) items.push(["faded", "Faded grey: the rest of the model."]);
    this.focus = {meshes, texture, caption, items};
    this.figure.dataset.focus = pointer || mesh || material || image;
    this.figure.dataset.focusMeshes = String(meshes.size);
    this.say("Reset view brings the whole model back.");
    this.paint();
  }

  /* The meshes (and the texture, for an image or texture) a glTF pointer names; an accessor
     or buffer view names the mesh primitives and images it feeds, a skin the primitives drawn
     with it (the overlays' "uses"). */
  async pointedAt(pointer) {
    const meshes = new Set();
    let texture = null;
    const used = /^\/(accessors|bufferViews|skins)\/\d+/.exec(pointer || "");
    if (used) {
      for (const user of this.uses[used[0]] || []) {
        const found = await this.pointedAt(user);
        found.meshes.forEach((part) => meshes.add(part));
        texture = texture || found.texture;
      }
      return {meshes, texture};
    }
    const match = /^\/(meshes|nodes|materials|images|textures)\/(\d+)(?:\/primitives\/(\d+))?/.exec(pointer || "");
    if (!match) return {meshes, texture};
    const associations = this.gltf.parser.associations;
    const [, collection, number, primitive] = match;
    const index = Number(number);
    if (collection === "images" || collection === "textures") {
      texture = await this.textureOf(collection, index);
    }
    for (const part of this.meshes) {
      const link = associations.get(part) || {};
      const which = part.geometry.userData.primitive ?? link.primitives;
      const material = associations.get(part.userData.material) || {};
      if ((collection === "meshes" && link.meshes === index
           && (primitive === undefined || which === Number(primitive)))
          || (collection === "nodes" && this.underNode(part, index))
          || (collection === "materials" && material.materials === index)
          || (texture && this.usesTexture(part, texture))) meshes.add(part);
    }
    if (texture && !meshes.size) this.meshes.forEach((part) => meshes.add(part));
    return {meshes, texture};
  }

  /* The meshes and the texture of an FBX texture finding: the polygons drawn with each
     material property the overlays list ("textures") under the image it names (and under
     its material property, when it names one), and that image, when the browser can show
     it. */
  async textureNamed(image, material) {
    const uses = this.textureUses.filter((use) => use.images.includes(image)
      && (!material || use.material === material));
    const materials = new Set(uses.map((use) => use.viewerMaterial));
    const associations = this.gltf.parser.associations;
    const meshes = new Set(this.meshes.filter((part) => materials.has(
      (associations.get(part.userData.material) || {}).materials)));
    const shown = uses.find((use) => use.viewerImage !== undefined);
    const texture = shown && meshes.size ? await this.textureOf("images", shown.viewerImage) : null;
    return {meshes, texture};
  }

  underNode(mesh, index) {
    for (let object = mesh; object; object = object.parent) {
      if ((this.gltf.parser.associations.get(object) || {}).nodes === index) return true;
    }
    return false;
  }

  async textureOf(collection, index) {
    const json = this.gltf.parser.json;
    const number = collection === "textures" ? index
      : (json.textures || []).findIndex((texture) => texture.source === index);
    if (number < 0 || !(json.textures || [])[number] || json.textures[number].source === undefined) return null;
    const texture = await this.gltf.parser.getDependency("texture", number);
    texture.colorSpace = SRGBColorSpace;
    return texture;
  }

  usesTexture(mesh, texture) {
    const material = mesh.userData.material;
    return TEXTURE_SLOTS.some((slot) => material[slot] && material[slot].source === texture.source);
  }

  /* Warning-colour markers, drawn over the model: glTF ones in each primitive's own space,
     but for joints (``space: "scene"``), placed in the scene as FBX and OBJ ones are. */
  mark(entry, meshes) {
    const parents = entry.pointer && entry.space !== "scene" ? [...meshes] : [this.model];
    for (const parent of parents) {
      if (entry.points && entry.points.length) {
        const geometry = new BufferGeometry();
        geometry.setAttribute("position", new Float32BufferAttribute(entry.points, 3));
        const points = new Points(geometry, new PointsMaterial({
          color: WARNING, size: 7, sizeAttenuation: false, depthTest: false}));
        points.renderOrder = 2;
        this.attach(parent, points);
      }
      if (entry.triangles && entry.triangles.length) {
        const geometry = new BufferGeometry();
        geometry.setAttribute("position", new Float32BufferAttribute(entry.triangles, 3));
        const marked = new Mesh(geometry, new MeshBasicMaterial({
          color: WARNING, side: DoubleSide, depthTest: false, transparent: true, opacity: 0.85}));
        marked.renderOrder = 2;
        this.attach(parent, marked);
      }
    }
  }

  attach(parent, marker) {
    parent.add(marker);
    this.markers.push(marker);
  }
}

function setUp() {
  const figures = [...document.querySelectorAll(".viewer[data-model]")];
  if (!figures.length) return;
  if (!webglAvailable()) {
    figures.forEach((figure) => {
      figure.querySelector(".viewer-status").textContent =
        "This browser has no WebGL: the picture is shown instead of the 3D view.";
      figure.querySelectorAll("[data-action=load]").forEach((button) => button.remove());
    });
    return;
  }
  const own = figures.filter((figure) => !figure.dataset.compare);
  const viewers = new Map(own.map((figure) => [figure.dataset.filename, new ModelViewer(figure)]));
  const all = [...viewers.values()];
  document.querySelectorAll("[data-linked-cameras]").forEach((views) => {
    const linked = [...views.querySelectorAll(".viewer[data-model]")].map((f) => new ModelViewer(f));
    linked.forEach((viewer) => { viewer.linked = linked.filter((other) => other !== viewer); });
    all.push(...linked);
  });
  for (const viewer of all) {
    if (viewer.figure.dataset.autoload === "true") viewer.load();
  }
  document.querySelectorAll("button.show-on-model").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      const viewer = viewers.get(button.dataset.file);
      viewer.figure.scrollIntoView({block: "nearest"});
      const {code, pointer, mesh, image, material, title, headline} = button.dataset;
      viewer.showIssue({code, pointer, mesh, image, material, headline: headline || title || code});
    });
  });
}

setUp();
