package dev.lychee.core.vector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The paired dot product gives every score bit for bit as the single one does, so a search that
 * pairs its queries ranks exactly as one that does not.
 */
class VectorsTest {
  private final Random random = new Random(7);

  private float[] vector(int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return Vectors.unit(v);
  }

  @Test
  void pairedDotProductsEqualSingleOnesBitForBit() {
    for (int dim : new int[] {1, 2, 3, 4, 5, 7, 8, 13, 384}) {
      for (int trial = 0; trial < 50; trial++) {
        float[] a = vector(dim);
        float[] b = vector(dim);
        float[] data = new float[3 * dim];
        System.arraycopy(vector(dim), 0, data, dim, dim);
        double[] out = new double[3];
        Vectors.dot2(a, b, data, dim, out, 1);
        assertThat(Double.doubleToRawLongBits(out[1])).isEqualTo(Double.doubleToRawLongBits(Vectors.dot(a, data, dim)));
        assertThat(Double.doubleToRawLongBits(out[2])).isEqualTo(Double.doubleToRawLongBits(Vectors.dot(b, data, dim)));
        assertThat(out[0]).isZero();
      }
    }
  }

  @Test
  void aSearchOfSeveralQueriesGivesEachQueryItsOwnHits() {
    VectorSlab slab = new VectorSlab();
    Map<String, float[]> stored = new LinkedHashMap<>();
    for (int i = 0; i < 300; i++) {
      stored.put("v" + i, vector(24));
    }
    // ties: the same vector under several ids are ordered by id
    stored.put("twin-b", stored.get("v3").clone());
    stored.put("twin-a", stored.get("v3").clone());
    slab.upsert(stored);
    for (int m = 1; m <= 5; m++) {
      List<float[]> queries = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        queries.add(j == 0 ? stored.get("v3").clone() : vector(24));
      }
      List<List<ScoredId>> together = slab.search(queries, 9, id -> !id.equals("v7"));
      assertThat(together).hasSize(m);
      for (int j = 0; j < m; j++) {
        assertThat(together.get(j)).isEqualTo(slab.search(queries.get(j), 9, id -> !id.equals("v7")));
      }
      assertThat(together.get(0)).extracting(ScoredId::id).startsWith("twin-a", "twin-b", "v3");
    }
  }
}
