/**
 * Lychee's service provider interfaces. Each has one job; default implementations live in
 * {@code lychee-core}, durable and model-backed ones in the backend modules, and every
 * implementation is expected to pass the matching abstract conformance suite published in
 * {@code lychee-core}'s test-jar.
 *
 * <p>Unless an interface says otherwise: arguments are non-null, returned lists are never null
 * and may be unmodifiable, and implementations are safe for use by several threads at once.
 */
package dev.lychee.api.spi;
