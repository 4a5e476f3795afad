// Shared by the worker threads and the converter's test: plain JavaScript.

// Custom layers of the RRDN (esrgan-thick) models, as UpscalerJS defines them.
export function registerEsrganLayers(tf) {
  const first = (i) => (Array.isArray(i) ? i[0] : i);
  class MultiplyBeta extends tf.layers.Layer {
    constructor() {
      super({});
      this.beta = 0.2;
    }
    call(inputs) {
      return tf.mul(first(inputs), this.beta);
    }
    static className = 'MultiplyBeta';
  }
  tf.serialization.registerClass(MultiplyBeta);
  for (const sc of [2, 3, 4, 8]) {
    class PixelShuffle extends tf.layers.Layer {
      constructor() {
        super({});
        this.scale = sc;
      }
      computeOutputShape(s) {
        return [s[0], s[1], s[2], 3];
      }
      call(inputs) {
        return tf.depthToSpace(first(inputs), sc, 'NHWC');
      }
    }
    Object.defineProperty(PixelShuffle, 'className', { value: `PixelShuffle${sc}x` });
    tf.serialization.registerClass(PixelShuffle);
  }
}
