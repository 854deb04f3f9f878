/**
 * Helpers shared by every LLM-backed stage: locating JSON in free-form model output
 * ({@link dev.lychee.core.llm.JsonExtraction}), building chat requests
 * ({@link dev.lychee.core.llm.ChatRequests}) and counting tokens for cost accounting
 * ({@link dev.lychee.core.llm.O200kTokenCounter}).
 */
package dev.lychee.core.llm;
