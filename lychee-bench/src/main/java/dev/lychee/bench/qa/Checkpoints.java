package dev.lychee.bench.qa;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.bench.harness.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finished conversations of a run, one JSON file each under {@code <dir>/<variant>/<id>.json}, so an
 * interrupted run resumes where it stopped. A file is written atomically once its conversation is
 * complete; a file that does not parse (from an older format, say) is ignored and recomputed.
 */
public final class Checkpoints {
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");
  private final Path dir;

  public Checkpoints(Path dir) {
    this.dir = Objects.requireNonNull(dir, "dir");
  }

  /** The finished outcome of this variant and conversation, if one was written. */
  public Optional<ConversationOutcome> load(String variant, String id) {
    Path f = file(variant, id);
    if (!Files.isRegularFile(f)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(f.toFile(), ConversationOutcome.class));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Records a finished conversation. */
  public void save(ConversationOutcome outcome) {
    try {
      AtomicFiles.write(file(outcome.variant(), outcome.id()), JSON.writeValueAsString(outcome));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a checkpoint in " + dir, e);
    }
  }

  private Path file(String variant, String id) {
    return dir.resolve(UNSAFE.matcher(variant).replaceAll("_")).resolve(UNSAFE.matcher(id).replaceAll("_") + ".json");
  }
}
