package dev.lychee.server.boot;

import com.google.inject.Module;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import dev.lychee.llm.ollama.OllamaConfig;
import dev.lychee.llm.ollama.OllamaModule;
import dev.lychee.llm.openai.OpenAiConfig;
import dev.lychee.llm.openai.OpenAiModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The memory a started server runs on: a SQLite file, the offline ONNX embedder, and the chat
 * model named by {@code LYCHEE_LLM} ({@code openai:<model>} or {@code ollama:<model>}; unset means
 * the offline components), configured as for the CLI ({@code OPENAI_API_KEY}, {@code
 * OPENAI_BASE_URL}, {@code OLLAMA_HOST}).
 *
 * @param db the SQLite file
 * @param env the environment to read
 */
record Backends(Path db, Map<String, String> env) {

  static Path defaultDb() {
    return Path.of(System.getProperty("user.home"), ".lychee", "lychee.db");
  }

  /** Opens the memory; {@code describe} receives one line saying what runs (never a key). */
  Lychee open(java.util.function.Consumer<String> describe) {
    String llm = env.getOrDefault("LYCHEE_LLM", "").trim();
    if (!llm.isEmpty() && !llm.startsWith("openai:") && !llm.startsWith("ollama:")) {
      throw new IllegalArgumentException("LYCHEE_LLM='" + llm + "': expected openai:<model> or ollama:<model>");
    }
    try {
      Path parent = db.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot create the directory of " + db + ": " + e.getMessage(), e);
    }
    List<Module> modules = new ArrayList<>();
    modules.add(new SqliteStoreModule(db));
    modules.add(new OnnxEmbeddingModule());
    OpenAiConfig.fromEnvironment(env).ifPresent(c -> modules.add(new OpenAiModule(c)));
    OllamaConfig.fromEnvironment(env).ifPresent(c -> modules.add(new OllamaModule(c)));
    describe.accept("SQLite store " + db + "; embedder onnx bge-small-en-v1.5-q; "
        + (llm.isEmpty() ? "offline components (heuristic encoder, rule-based planner, extractive answerer)"
            : "LLM " + llm + " for encoder, planner and answerer"));
    return Lychee.create(modules.toArray(Module[]::new));
  }
}
