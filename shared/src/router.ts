/**
 * The router every app uses, through this package only. The shared package is the page's one
 * singleton for routing too: react-router itself is not shared as a whole module (a shared
 * module cannot be tree-shaken), so each build keeps only these exports of it, and the page
 * still has one router context because everyone gets them from the one loaded copy of this
 * package. ESLint refuses direct imports of react-router(-dom) elsewhere.
 */
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Route,
  Routes,
  matchRoutes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
