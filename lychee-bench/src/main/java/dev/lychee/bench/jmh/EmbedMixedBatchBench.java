package dev.lychee.bench.jmh;

import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.embed.onnx.OnnxEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * How many documents per second the offline embedder ({@link OnnxEmbedder}) encodes when a batch
 * mixes short and long texts, as the write path's batches do: turns (about 20 words), exchanges
 * of two turns (about 45) and records (about 12), in the proportions of LoCoMo ingest (one turn,
 * one exchange and two records). Each invocation embeds one batch of {@code batch} texts, so the
 * score is batches per second: times {@code batch} for texts per second. Batches cycle through 64
 * different ones (documents are not cached, so every call runs the model).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EmbedMixedBatchBench {
  @Param({"2", "8", "32"})
  public int batch;

  private OnnxEmbedder embedder;
  private List<List<String>> batches;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    embedder = new OnnxEmbedder();
    Random random = new Random(21);
    batches = new ArrayList<>();
    for (int b = 0; b < 64; b++) {
      List<String> texts = new ArrayList<>(batch);
      for (int i = 0; i < batch; i++) {
        int kind = random.nextInt(4);
        int words = switch (kind) {
          case 0 -> 12 + random.nextInt(20); // a turn
          case 1 -> 30 + random.nextInt(35); // an exchange of two turns
          default -> 6 + random.nextInt(14); // a record or a node text
        };
        StringBuilder text = new StringBuilder(kind == 1 ? "user: Speaker: " : "Speaker: ");
        for (int w = 0; w < words; w++) {
          if (kind == 1 && w == words / 2) {
            text.append("\nassistant: Other: ");
          }
          text.append(BenchData.word(random)).append(w % 9 == 8 ? ". " : " ");
        }
        texts.add(text.toString().strip());
      }
      batches.add(texts);
    }
  }

  /** One batch of mixed lengths, as a caller waits for it. */
  @Benchmark
  public List<float[]> embedBatch() {
    return embedder.embedDocuments(batches.get(next++ & 63), EmbeddingPriority.FOREGROUND);
  }
}
