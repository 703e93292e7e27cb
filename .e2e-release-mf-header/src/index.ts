// Async boundary: shared singletons are negotiated before any app code imports them.
import('./bootstrap');
