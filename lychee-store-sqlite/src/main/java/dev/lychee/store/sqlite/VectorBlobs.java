package dev.lychee.store.sqlite;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Vectors as BLOBs: little-endian IEEE-754 float32, {@code 4 * dim} bytes, no header. */
final class VectorBlobs {
  private VectorBlobs() {}

  static byte[] encode(float[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(v);
    return b.array();
  }

  static float[] decode(byte[] blob) {
    if (blob.length % Float.BYTES != 0) {
      throw new IllegalStateException("corrupt vector blob of " + blob.length + " bytes");
    }
    float[] v = new float[blob.length / Float.BYTES];
    ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    return v;
  }
}
