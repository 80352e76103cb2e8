// What the job page's viewer (web/static/viewer.js) uses of three.js: only these names are
// bundled, so the shipped file stays small. Add a name here and run ./build.sh to use another.
export {
  AmbientLight, Box3, BufferGeometry, CanvasTexture, Color, DirectionalLight, DoubleSide,
  Float32BufferAttribute, HemisphereLight, Mesh, MeshBasicMaterial, NearestFilter,
  PerspectiveCamera, Points, PointsMaterial, RepeatWrapping, SRGBColorSpace, Scene, Sphere,
  Texture, Vector3, WebGLRenderer,
} from "three";
export { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
export { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
