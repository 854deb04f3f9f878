/**
 * Local Ollama chat and embedding provider: {@link dev.lychee.llm.ollama.OllamaChatModel}, {@link
 * dev.lychee.llm.ollama.OllamaEmbedder}, configured by {@link dev.lychee.llm.ollama.OllamaConfig}
 * and wired by {@link dev.lychee.llm.ollama.OllamaModule}. Requests and responses use ollama4j's
 * wire model; the HTTP exchange is Lychee's own (see {@code OllamaHttp} for why).
 */
package dev.lychee.llm.ollama;
