package dev.lychee.cli;

import com.google.inject.Module;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import dev.lychee.llm.ollama.OllamaConfig;
import dev.lychee.llm.ollama.OllamaModule;
import dev.lychee.llm.openai.OpenAiConfig;
import dev.lychee.llm.openai.OpenAiModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The model components the CLI runs, read from the environment: {@code LYCHEE_LLM}
 * ({@code openai:<model>} or {@code ollama:<model>}; unset means offline), {@code LYCHEE_EMBEDDER}
 * ({@code onnx}, the default, or {@code openai:<model>} / {@code ollama:<model>}), plus
 * {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL} and {@code OLLAMA_HOST}.
 *
 * @param modules the Guice modules that bind the chosen chat model and embedder
 * @param llm a description of the chat model, or "" when offline
 * @param embedder a description of the embedder
 * @param missingKey a warning when a chat model or embedder on OpenAI's own endpoint is selected
 *     and {@code OPENAI_API_KEY} is unset ({@link OpenAiConfig#missingKeyWarning}): printed before
 *     the first call, since every call would be refused
 */
record ProviderEnvironment(List<Module> modules, String llm, String embedder, Optional<String> missingKey) {

  static ProviderEnvironment from(Map<String, String> env) {
    String llmVar = env.getOrDefault("LYCHEE_LLM", "").trim();
    String embedVar = env.getOrDefault("LYCHEE_EMBEDDER", "onnx").trim();
    if (!llmVar.isEmpty() && !llmVar.startsWith("openai:") && !llmVar.startsWith("ollama:")) {
      throw new IllegalArgumentException("LYCHEE_LLM='" + llmVar + "': expected openai:<model> or ollama:<model>");
    }
    if (!embedVar.isEmpty() && !embedVar.equalsIgnoreCase("onnx") && !embedVar.startsWith("openai:")
        && !embedVar.startsWith("ollama:")) {
      throw new IllegalArgumentException("LYCHEE_EMBEDDER='" + embedVar + "': expected onnx, openai:<model> or ollama:<model>");
    }
    List<Module> modules = new ArrayList<>();
    if (embedVar.isEmpty() || embedVar.toLowerCase(Locale.ROOT).equals("onnx")) {
      modules.add(new OnnxEmbeddingModule());
    }
    Optional<OpenAiConfig> openai = OpenAiConfig.fromEnvironment(env);
    openai.ifPresent(c -> modules.add(new OpenAiModule(c)));
    Optional<OllamaConfig> ollama = OllamaConfig.fromEnvironment(env);
    ollama.ifPresent(c -> modules.add(new OllamaModule(c)));
    String embedder = embedVar.isEmpty() || embedVar.equalsIgnoreCase("onnx")
        ? "embedder onnx bge-small-en-v1.5-q (offline)" : "embedder " + embedVar;
    // the one check serve and mcp print too (OpenAiConfig knows when OpenAI will refuse every call)
    Optional<String> missing = openai.flatMap(c -> c.missingKeyWarning("`lychee encode --pending NAMESPACE`"));
    return new ProviderEnvironment(List.copyOf(modules), llmVar, embedder, missing);
  }

  /** One line for the start banner: which components run, offline or with an LLM. */
  String describe() {
    if (llm.isEmpty()) {
      return embedder + "; offline components (heuristic encoder, rule-based planner, extractive answerer)";
    }
    return embedder + "; LLM " + llm + " for encoder, planner and answerer";
  }
}
