// Here, not in the shared package's cookies.ts, because main.js reads the canary cohort before the
// shared singletons are negotiated (shell/src/remotes/discovery.ts). The table and the parsing
// are the platform's one copy (node/choice.mjs), which the page server and the boot script use too.
export {
  chosenPointer,
  cohortIn,
  cohortValue,
  cookieIn,
  loggedInIn,
  PLATFORM_COOKIES,
  LOCAL_VERSION,
  localManifestAt,
  isOverrideVersion,
  overrideManifest,
  storedVersionOf,
  chooseVersions,
  overridesIn,
  OVERRIDE_PARAM,
  isDiscoveryDocument,
  type ChoicePointer,
  type VersionChoice,
} from '../../node/choice.mjs';
