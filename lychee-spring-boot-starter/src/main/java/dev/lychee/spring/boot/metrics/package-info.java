/** Micrometer meters for the memory advisor. */
package dev.lychee.spring.boot.metrics;
