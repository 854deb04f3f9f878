/**
 * OpenAI-compatible chat and embedding provider on openai-java: {@link
 * dev.lychee.llm.openai.OpenAiChatModel}, {@link dev.lychee.llm.openai.OpenAiEmbedder}, configured
 * by {@link dev.lychee.llm.openai.OpenAiConfig} and wired by {@link
 * dev.lychee.llm.openai.OpenAiModule}. Works with OpenAI and with any server that speaks the same
 * API (vLLM, llama.cpp server, LM Studio) through the base URL.
 */
package dev.lychee.llm.openai;
