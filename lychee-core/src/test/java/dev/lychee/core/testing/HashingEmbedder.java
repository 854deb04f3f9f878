package dev.lychee.core.testing;

import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.api.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic bag-of-words embedder for tests that are about something other than embedding
 * quality: each lower-cased word (and word bigram) is hashed into one of {@code dimension} buckets
 * with a sign, and the vector is L2-normalised. Texts that share words get a higher cosine than
 * texts that do not, which is enough to drive pipeline tests without loading a model.
 */
public final class HashingEmbedder implements Embedder {
  private final int dimension;

  public HashingEmbedder() {
    this(256);
  }

  public HashingEmbedder(int dimension) {
    if (dimension < 8) {
      throw new IllegalArgumentException("dimension must be >= 8");
    }
    this.dimension = dimension;
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(embed(t));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    return embed(query);
  }

  private float[] embed(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("cannot embed blank text");
    }
    float[] v = new float[dimension];
    String[] words = text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+");
    String prev = null;
    for (String w : words) {
      if (w.isEmpty()) {
        continue;
      }
      add(v, w, 1.0f);
      if (prev != null) {
        add(v, prev + " " + w, 0.5f);
      }
      prev = w;
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) {
      v[0] = 1;
      return v;
    }
    float inv = (float) (1.0 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  private void add(float[] v, String token, float weight) {
    int h = token.hashCode() * 0x9E3779B1;
    int bucket = Math.floorMod(h, dimension);
    v[bucket] += ((h >>> 16) & 1) == 0 ? weight : -weight;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String modelId() {
    return "hashing-" + dimension;
  }

  @Override
  public EmbeddingProfile profile() {
    return new EmbeddingProfile(0.5, 0.2);
  }
}
