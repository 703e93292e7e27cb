// Types of the jest-dom matchers that shared's test setup installs, for every UI package's tests.
/// <reference types="@testing-library/jest-dom/vitest" />
