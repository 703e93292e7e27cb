/** Replaced by webpack at build time (optimization.nodeEnv follows the mode): 'production' or 'development'. */
declare const process: { env: { NODE_ENV?: string } };
