package dev.lychee.core.segment;

import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import java.util.List;

/** Hand-made unit vectors and exchanges for segmentation tests. */
final class Fixtures {
  static final String NS = "ns";
  static final String SESSION = "s1";
  static final int DIM = 8;

  private Fixtures() {}

  /** The unit vector along {@code axis}. */
  static float[] axis(int axis) {
    float[] v = new float[DIM];
    v[axis] = 1f;
    return v;
  }

  /** cos(angle)·axis(a) + sin(angle)·axis(b): unit, with cosine cos(angle) to axis(a). */
  static float[] between(int a, int b, double angle) {
    float[] v = new float[DIM];
    v[a] = (float) Math.cos(angle);
    v[b] = (float) Math.sin(angle);
    return v;
  }

  static RawTurn turn(int index, Role role, String text) {
    return new RawTurn(NS, TurnRef.of(SESSION, index), role, null, text, null);
  }

  /** A one-turn exchange at {@code index} with the given token count and vector. */
  static Exchange exchange(int index, int tokens, float[] vector) {
    RawTurn t = turn(index, Role.USER, "turn " + index);
    return new Exchange(NS, SESSION, List.of(t), "user: turn " + index, tokens, vector, false);
  }

  /** A fragment of the oversized turn {@code index}. */
  static Exchange fragment(int index, String slice, int tokens) {
    RawTurn t = turn(index, Role.USER, slice);
    return new Exchange(NS, SESSION, List.of(t), "user: " + slice, tokens, axis(0), true);
  }
}
